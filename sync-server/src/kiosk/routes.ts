import type { FastifyInstance } from 'fastify';
import {
  leaveKioskInputSchema,
  setKioskPinInputSchema,
  startKioskInputSchema,
  verifyPinInputSchema,
} from '@platform/schema/kiosk/kiosk.zod';
import { kioskClaims } from '@platform/schema/organizations/claims';
import { assertOwnSession } from '../access/act-for.ts';
import { forgetSessionDevices } from '../notifications/notifications.service.ts';
import { requireClaim, requireSession } from '../plugins/session.ts';
import { findLiveKiosk } from './kiosk-devices.repository.ts';
import { clearKioskCookie, requireKiosk, setKioskCookie } from './kiosk-credential.ts';
import { kioskPinStatus, removeKioskPin, setKioskPin } from './kiosk-pin.service.ts';
import { describeKiosk, leaveKiosk, startKiosk, verifyKioskPin } from './kiosk.service.ts';

/** Kiosk mode (issue 6): start and leave a kiosk, its roster and PIN checks, one's own PIN. */
export async function kioskRoutes(app: FastifyInstance) {
  app.post('/api/kiosk/start', async (request, reply) => {
    await requireSession(request);
    const { orgId } = startKioskInputSchema.parse(request.body);
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
  });

  app.get('/api/kiosk', async (request) => describeKiosk(app.db, await requireKiosk(app, request)));

  app.post('/api/kiosk/verify-pin', async (request) => {
    const kiosk = await requireKiosk(app, request);
    return verifyKioskPin(app.db, kiosk, verifyPinInputSchema.parse(request.body));
  });

  app.post('/api/kiosk/leave', async (request, reply) => {
    const kiosk = await requireKiosk(app, request);
    const { password } = leaveKioskInputSchema.parse(request.body);
    await leaveKiosk(app.db, kiosk, password, request.ip);
    clearKioskCookie(app, reply);
    return reply.code(204).send();
  });

  app.get('/api/kiosk/pin', async (request) =>
    kioskPinStatus(app.db, (await requireSession(request)).user.id),
  );

  // The PIN is a credential of its own: set or removed only in the owner's own session.
  app.put('/api/kiosk/pin', async (request) => {
    const session = await requireSession(request);
    assertOwnSession(session);
    const { pin } = setKioskPinInputSchema.parse(request.body);
    return setKioskPin(app.db, session.user.id, pin);
  });

  app.delete('/api/kiosk/pin', async (request) => {
    const session = await requireSession(request);
    assertOwnSession(session);
    return removeKioskPin(app.db, session.user.id);
  });
}
