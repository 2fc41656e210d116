import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  leaveKioskInputSchema,
  setKioskPinInputSchema,
  startKioskInputSchema,
  verifyPinInputSchema,
} from '@platform/schema/kiosk/kiosk.zod';
import { kioskClaims } from '@platform/schema/organizations/claims';
import { assertOwnSession } from '../access/act-for.ts';
import { forgetSessionDevices } from '../notifications/notifications.service.ts';
import { requireClaim, requireSession, sessionFirst } from '../plugins/session.ts';
import { findLiveKiosk } from './kiosk-devices.repository.ts';
import { clearKioskCookie, requireKiosk, setKioskCookie } from './kiosk-credential.ts';
import { kioskPinStatus, removeKioskPin, setKioskPin } from './kiosk-pin.service.ts';
import { describeKiosk, leaveKiosk, startKiosk, verifyKioskPin } from './kiosk.service.ts';

/** Kiosk mode (issue 6): start and leave a kiosk, its roster and PIN checks, one's own PIN. */
export async function kioskRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  /** The kiosk's own routes: its credential first, then the body (401 before 400). */
  const kioskFirst = async (request: FastifyRequest) => {
    await requireKiosk(app, request);
  };

  api.post(
    '/api/kiosk/start',
    { schema: { body: startKioskInputSchema }, preValidation: sessionFirst },
    async (request, reply) => {
      const { orgId } = request.body;
      const session = await requireClaim(request, orgId, kioskClaims);
      const { kioskId, token } = await startKiosk(
        app.db,
        session,
        orgId,
        request.headers['user-agent'],
      );
      // The device stops being the staff member's: their session ends here, as on sign-out.
      await forgetSessionDevices(app.db, session.sessionId);
      await app.sessions.end(request, reply);
      setKioskCookie(app, reply, token);
      const kiosk = await findLiveKiosk(app.db, { id: kioskId });
      if (!kiosk) throw new Error('the kiosk just started is not live');
      return describeKiosk(app.db, kiosk);
    },
  );

  api.get('/api/kiosk', async (request) => describeKiosk(app.db, await requireKiosk(app, request)));

  api.post(
    '/api/kiosk/verify-pin',
    { schema: { body: verifyPinInputSchema }, preValidation: kioskFirst },
    async (request) => verifyKioskPin(app.db, await requireKiosk(app, request), request.body),
  );

  api.post(
    '/api/kiosk/leave',
    { schema: { body: leaveKioskInputSchema }, preValidation: kioskFirst },
    async (request, reply) => {
      const kiosk = await requireKiosk(app, request);
      await leaveKiosk(app.db, kiosk, request.body.password, request.ip);
      clearKioskCookie(app, reply);
      return reply.code(204).send();
    },
  );

  api.get('/api/kiosk/pin', async (request) =>
    kioskPinStatus(app.db, (await requireSession(request)).user.id),
  );

  // The PIN is a credential of its own: set or removed only in the owner's own session.
  api.put(
    '/api/kiosk/pin',
    { schema: { body: setKioskPinInputSchema }, preValidation: sessionFirst },
    async (request) => {
      const session = await requireSession(request);
      assertOwnSession(session);
      return setKioskPin(app.db, session.user.id, request.body.pin);
    },
  );

  api.delete('/api/kiosk/pin', async (request) => {
    const session = await requireSession(request);
    assertOwnSession(session);
    return removeKioskPin(app.db, session.user.id);
  });
}
