import { and, eq, gt, isNull, ne, or, sql } from 'drizzle-orm';
import { effectiveLinkExists } from '../access/effective-link.ts';
import { memberships, sessions, users } from '@platform/schema/db';
import type { Db } from '../db/open-database.ts';
import { hashToken, newToken } from './tokens.ts';

export const REFRESH_TOKEN_DAYS = 60;
/** Two tabs refreshing at once both present the same token; the slower one may reuse it briefly. */
export const REFRESH_REUSE_GRACE_MS = 60_000;

export type NewSession = {
  userId: string;
  view: 'org' | 'customer';
  orgId: string | null;
  returnToUserId?: string | null;
  impersonatorUserId?: string | null;
  userAgent?: string | undefined;
};

export async function insertSession(db: Db, input: NewSession) {
  const refreshToken = newToken();
  const [row] = await db
    .insert(sessions)
    .values({
      userId: input.userId,
      view: input.view,
      orgId: input.orgId,
      returnToUserId: input.returnToUserId ?? null,
      impersonatorUserId: input.impersonatorUserId ?? null,
      refreshTokenHash: hashToken(refreshToken),
      expiresAt: new Date(Date.now() + REFRESH_TOKEN_DAYS * 86_400_000),
      userAgent: input.userAgent?.slice(0, 300) ?? null,
    })
    .returning({ id: sessions.id });
  if (!row) throw new Error('session insert returned nothing');
  return { sessionId: row.id, refreshToken };
}

/**
 * A switched session stays good only while the switch would still be allowed (decision 0035),
 * for the person at the keyboard (`return_to_user_id`, kept through every hop): an admin's
 * while they are an admin; a guardian's while their own link to the account it is in now
 * stands confirmed, the account is no admin and nobody's staff, and the session is in the
 * customer view — a guardian never acts as staff. Asked on every request, so removing a link
 * ends the switch at once, however many hops the session made.
 */
const switchStillAllowed = or(
  isNull(sessions.returnToUserId),
  sql`exists (select 1 from ${users} admin where admin.id = ${sessions.impersonatorUserId} and admin.role = 'admin')`,
  and(
    effectiveLinkExists(sessions.returnToUserId, sessions.userId),
    eq(sessions.view, 'customer'),
    eq(users.role, 'user'),
    sql`not exists (select 1 from ${memberships} staff
      where staff.user_id = ${sessions.userId} and staff.kind = 'staff')`,
  ),
);

/** The live session with its user and, in org view, the claims of that membership. */
export async function findLiveSession(db: Db, sessionId: string) {
  // One round trip: the session, its user and (in org view) the claims of that staff
  // membership — this runs on every authenticated request.
  const [row] = await db
    .select({ session: sessions, user: users, claims: memberships.claims })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(
      memberships,
      and(
        eq(sessions.view, 'org'),
        eq(memberships.orgId, sessions.orgId),
        eq(memberships.userId, sessions.userId),
        eq(memberships.kind, 'staff'),
      ),
    )
    .where(
      and(
        eq(sessions.id, sessionId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, new Date()),
        switchStillAllowed,
      ),
    );
  if (!row) return null;
  return { session: row.session, user: row.user, claims: row.claims ?? [] };
}

/**
 * Rotates a refresh token. Returns the session id and the new token (null when a second tab
 * reused the previous token within the grace period), or null when the token is unknown,
 * expired or revoked. A token reused after the grace period revokes the session: it
 * was stolen or replayed.
 */
export async function rotateRefreshToken(db: Db, refreshToken: string) {
  const hash = hashToken(refreshToken);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(sessions)
      .where(or(eq(sessions.refreshTokenHash, hash), eq(sessions.previousRefreshTokenHash, hash)))
      .for('update');
    if (!row || row.revokedAt || row.expiresAt <= new Date()) return null;
    if (
      row.refreshTokenHash !== hash &&
      Date.now() - row.refreshedAt.getTime() > REFRESH_REUSE_GRACE_MS
    ) {
      await tx.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, row.id));
      return null;
    }
    // A second tab presenting the token another tab just rotated (within the grace period):
    // give it an access token only. Rotating again would forget the token the first tab was
    // given, and the browser's shared cookie jar may well keep that one.
    if (row.refreshTokenHash !== hash) return { sessionId: row.id, refreshToken: null };
    const next = newToken();
    await tx
      .update(sessions)
      .set({
        previousRefreshTokenHash: row.refreshTokenHash,
        refreshTokenHash: hashToken(next),
        refreshedAt: new Date(),
      })
      .where(eq(sessions.id, row.id));
    return { sessionId: row.id, refreshToken: next };
  });
}

export async function revokeSession(db: Db, sessionId: string) {
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

export async function revokeUserSessions(db: Db, userId: string, exceptSessionId?: string) {
  const conditions = [eq(sessions.userId, userId), isNull(sessions.revokedAt)];
  if (exceptSessionId) conditions.push(ne(sessions.id, exceptSessionId));
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(...conditions));
}

/**
 * Ends the person's sessions in the organisation's view (they left its staff): the next
 * request of such a session is signed out instead of drawing an organisation it has no part in.
 */
export async function revokeOrgViewSessions(db: Db, userId: string, orgId: string) {
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(sessions.userId, userId),
        eq(sessions.view, 'org'),
        eq(sessions.orgId, orgId),
        isNull(sessions.revokedAt),
      ),
    );
}
