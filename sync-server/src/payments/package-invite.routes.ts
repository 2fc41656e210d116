import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { packageInviteRequestSchema } from '@platform/schema/payments/package-invite.zod';
import { keyboardOf } from '../access/act-for.ts';
import { enforce } from '../rate-limits/rate-limits.ts';
import { requireSession, sessionFirst } from '../plugins/session.ts';
import {
  acceptPackageInvite,
  cancelPackageInvite,
  customerInvite,
  pendingInvites,
  sendPackageInvite,
  type InviteDeps,
} from './package-invites.service.ts';
import { requireSeller } from './payments.access.ts';
import { newCardOf } from './new-card.ts';
import { cardLimits, chargeLimits } from './payments.limits.ts';

/**
 * spec §7 POST /api/package-invite, one route with an action (issue 15). Staff who sell
 * (manage-point-of-sale) send, list and cancel invitations; the invited customer reads one and
 * pays it. Nobody signed in gets 401 before the body is read.
 */
export async function packageInviteRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const deps: InviteDeps = {
    db: app.db,
    processor: app.paymentProcessor,
    mailer: app.mailer,
    publicUrl: app.config.publicUrl,
    jobs: app.jobs,
  };

  api.post(
    '/api/package-invite',
    { schema: { body: packageInviteRequestSchema }, preValidation: sessionFirst },
    async (request, reply) => {
      const body = request.body;
      switch (body.action) {
        case 'send-package-invite': {
          const seller = await requireSeller(request);
          await enforce(app.db, [{ rule: chargeLimits.runCharge, subject: seller.userId }]);
          return reply.code(201).send(await sendPackageInvite(deps, seller, body));
        }
        case 'get-pending-invites':
          return {
            invites: await pendingInvites(app.db, await requireSeller(request), body.rosterId),
          };
        case 'cancel-package-invite':
          return cancelPackageInvite(app.db, await requireSeller(request), body.inviteId);
        case 'get-package-invite': {
          const current = await requireSession(request);
          return customerInvite(
            deps,
            { userId: current.user.id, switchedFrom: keyboardOf(current) },
            body.inviteId,
          );
        }
        case 'accept-package-invite': {
          const current = await requireSession(request);
          if (newCardOf(body)) {
            // A card form draws card testing: bounded like the desk's.
            await enforce(app.db, cardLimits(keyboardOf(current) ?? current.user.id, request.ip));
          }
          return acceptPackageInvite(
            deps,
            { userId: current.user.id, switchedFrom: keyboardOf(current) },
            body,
          );
        }
      }
    },
  );
}
