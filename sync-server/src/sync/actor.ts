import type { SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { KIOSK_REQUEST_HEADER } from '@platform/schema/kiosk/kiosk.zod';
import { childrenActedFor } from '../access/act-for.ts';
import { findLiveSession } from '../auth/sessions.service.ts';
import type { Db } from '../db/open-database.ts';
import { isKioskLive, requireKiosk } from '../kiosk/kiosk-credential.ts';
import { requireSession, type SessionContext } from '../plugins/session.ts';

/**
 * Who is replicating: the acting account, its view and organisation, claims and family. A
 * kiosk (view 'kiosk') is a device of its organisation, not a person: `userId` is then the
 * staff member who started it, answerable for the device.
 */
export type Actor = {
  userId: string;
  view: 'org' | 'customer' | 'kiosk';
  orgId: string | null;
  claims: readonly string[];
  /** The account itself and the children it is guardian of. */
  familyUserIds: readonly string[];
};

export async function actorOf(db: Db, session: SessionContext): Promise<Actor> {
  // Staff scopes never reach a family; only customers need their children looked up — the
  // ones the decision point lets them act for (confirmed links, decision 0035).
  const children =
    session.session.view !== 'customer' ? [] : await childrenActedFor(db, session.user.id);
  return {
    userId: session.user.id,
    view: session.session.view,
    orgId: session.session.orgId,
    claims: session.claims,
    familyUserIds: [session.user.id, ...children],
  };
}

/**
 * The replicating party of a request: a signed-in session — or, when the request says it
 * comes from a kiosk (KIOSK_REQUEST_HEADER), that kiosk's credential and never a session. A
 * device holding both never mixes their scopes. `holder` names the session or kiosk device
 * (the stream limit counts per holder); `currentActor` is asked again by the stream, and is
 * null once the session or kiosk has ended.
 */
export async function replicatingActor(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<{ actor: Actor; holder: string; currentActor: () => Promise<Actor | null> }> {
  if (request.headers[KIOSK_REQUEST_HEADER] !== undefined) {
    const { kiosk } = await requireKiosk(app, request);
    const actor: Actor = {
      userId: kiosk.startedByUserId,
      view: 'kiosk',
      orgId: kiosk.orgId,
      claims: [],
      familyUserIds: [],
    };
    return {
      actor,
      holder: `kiosk:${kiosk.id}`,
      // A kiosk's scope is its organisation's, fixed when it started.
      currentActor: async () => ((await isKioskLive(app.db, kiosk.id)) ? actor : null),
    };
  }
  const session = await requireSession(request);
  return {
    actor: await actorOf(app.db, session),
    holder: `session:${session.sessionId}`,
    currentActor: async () => {
      const live = await findLiveSession(app.db, session.sessionId);
      return live ? actorOf(app.db, { ...live, sessionId: session.sessionId }) : null;
    },
  };
}

/**
 * What part of a collection an actor may see and change: one organisation, and within it
 * everyone (`ownerIds` null) or only these people. `writable` false means read-only.
 * `rowFilter` narrows what a pull hands out further (a kiosk's current bookings). With the
 * (txid, id) checkpoint it is only safe for documents that ever LEAVE it as time passes, never
 * enter it without a new txid: a pull skips a row out of the filter for good.
 */
export type Scope = {
  orgId: string;
  ownerIds: readonly string[] | null;
  writable: boolean;
  rowFilter?: SQL;
};
