import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { kioskMessages } from '@platform/schema/kiosk/kiosk.messages';
import { hashToken } from '../auth/tokens.ts';
import type { Db } from '../db/open-database.ts';
import { Unauthenticated } from '../plugins/domain-errors.ts';
import {
  findLiveKiosk,
  KIOSK_CREDENTIAL_DAYS,
  type LiveKiosk,
} from './kiosk-devices.repository.ts';

/**
 * The kiosk credential: its own cookie, never a session's. Only the kiosk's routes and its
 * replication read it (path /api keeps it off page loads); every other route looks for a
 * session, finds none and answers 401.
 */
export const KIOSK_COOKIE = 'kiosk_token';

const cookieOptions = (app: FastifyInstance) => ({
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: app.config.secureCookies,
  path: '/api',
});

export function setKioskCookie(app: FastifyInstance, reply: FastifyReply, token: string): void {
  reply.setCookie(KIOSK_COOKIE, token, {
    ...cookieOptions(app),
    maxAge: KIOSK_CREDENTIAL_DAYS * 86_400,
  });
}

export function clearKioskCookie(app: FastifyInstance, reply: FastifyReply): void {
  reply.clearCookie(KIOSK_COOKIE, cookieOptions(app));
}

const resolved = new WeakMap<FastifyRequest, Promise<LiveKiosk | null>>();

/** The live kiosk this request's credential names (looked up once per request), or 401. */
export async function requireKiosk(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<LiveKiosk> {
  let pending = resolved.get(request);
  if (!pending) {
    const token = request.cookies[KIOSK_COOKIE];
    pending = token
      ? findLiveKiosk(app.db, { tokenHash: hashToken(token) })
      : Promise.resolve(null);
    resolved.set(request, pending);
  }
  const kiosk = await pending;
  if (!kiosk) throw new Unauthenticated(kioskMessages.kioskEnded);
  return kiosk;
}

/**
 * Whether a kiosk still stands: not ended, not expired, its starter still holds the kiosk
 * claim. An open replication stream asks it again and again.
 */
export async function isKioskLive(db: Db, kioskId: string): Promise<boolean> {
  return (await findLiveKiosk(db, { id: kioskId })) !== null;
}
