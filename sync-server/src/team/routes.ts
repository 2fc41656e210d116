import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  changeMemberInputSchema,
  inviteStaffInputSchema,
  teamInvitationTokenInputSchema,
} from '@platform/schema/team/team.zod';
import { requireSession, sessionFirst } from '../plugins/session.ts';
import { enforce } from '../rate-limits/rate-limits.ts';
import {
  acceptTeamInvitation,
  declineTeamInvitation,
  previewTeamInvitation,
} from './join-team.service.ts';
import { requireTeamManager, type TeamManager } from './team.access.ts';
import { teamInvitationLimits } from './team.limits.ts';
import {
  cancelInvitation,
  changeMember,
  inviteStaff,
  removeMember,
  resendInvitation,
  teamOf,
} from './team.service.ts';

const memberParams = z.object({ userId: z.uuid() });
const invitationParams = z.object({ invitationId: z.uuid() });

/** A manager's routes read nothing before the claim is checked (403 before 400). */
const managerFirst = async (request: FastifyRequest) => {
  await requireTeamManager(request);
};

/** The Team section (issue 14): always the session's organisation, claim manage-org-staff. */
export async function teamRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const deps = () => ({ db: app.db, mailer: app.mailer, publicUrl: app.config.publicUrl });
  /** Each send of an invitation email counts, per manager and per organisation. */
  const spendOnSend = (manager: TeamManager) =>
    enforce(app.db, [
      { rule: teamInvitationLimits.perManager, subject: manager.userId },
      { rule: teamInvitationLimits.perOrg, subject: manager.orgId },
    ]);

  api.get('/api/team', async (request) => teamOf(app.db, await requireTeamManager(request)));

  api.post(
    '/api/team/invitations',
    { schema: { body: inviteStaffInputSchema }, preValidation: managerFirst },
    async (request, reply) => {
      const manager = await requireTeamManager(request);
      await spendOnSend(manager);
      return reply.code(201).send(await inviteStaff(deps(), manager, request.body));
    },
  );

  api.post(
    '/api/team/invitations/:invitationId/resend',
    { schema: { params: invitationParams }, preValidation: managerFirst },
    async (request) => {
      const manager = await requireTeamManager(request);
      await spendOnSend(manager);
      return resendInvitation(deps(), manager, request.params.invitationId);
    },
  );

  api.delete(
    '/api/team/invitations/:invitationId',
    { schema: { params: invitationParams }, preValidation: managerFirst },
    async (request) =>
      cancelInvitation(app.db, await requireTeamManager(request), request.params.invitationId),
  );

  api.put(
    '/api/team/members/:userId',
    {
      schema: { params: memberParams, body: changeMemberInputSchema },
      preValidation: managerFirst,
    },
    async (request) =>
      changeMember(app.db, await requireTeamManager(request), request.params.userId, request.body),
  );

  api.delete(
    '/api/team/members/:userId',
    { schema: { params: memberParams }, preValidation: managerFirst },
    async (request) =>
      removeMember(app.db, await requireTeamManager(request), request.params.userId),
  );

  // The invited person's side: the emailed token opens it (public preview, signed-in answers).
  api.post(
    '/api/team-invitations/preview',
    { schema: { body: teamInvitationTokenInputSchema } },
    async (request) => previewTeamInvitation(app.db, request.body.token),
  );

  api.post(
    '/api/team-invitations/accept',
    { schema: { body: teamInvitationTokenInputSchema }, preValidation: sessionFirst },
    async (request, reply) => {
      const current = await requireSession(request);
      const joined = await acceptTeamInvitation(app.db, current, request.body.token);
      // The person is now staff: their session continues in the organisation's view.
      await app.sessions.start(reply, {
        userId: current.user.id,
        view: 'org',
        orgId: joined.orgId,
        userAgent: request.headers['user-agent'],
      });
      return joined;
    },
  );

  api.post(
    '/api/team-invitations/decline',
    { schema: { body: teamInvitationTokenInputSchema }, preValidation: sessionFirst },
    async (request) =>
      declineTeamInvitation(app.db, await requireSession(request), request.body.token),
  );
}
