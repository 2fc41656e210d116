import { and, desc, eq, gt, inArray, isNull, ne, notInArray, or, sql } from 'drizzle-orm';
import { notificationTokens, sessions } from '@platform/schema/db';
import type { NotificationTokenKind } from '@platform/schema/notifications/notifications.zod';
import type { Db } from '../db/open-database.ts';

export type NotificationToken = typeof notificationTokens.$inferSelect;

/** Devices kept per person; registering one more forgets the longest unused (a bound on fan-out). */
export const MAX_DEVICES_PER_USER = 20;

export type DeviceRegistration = {
  userId: string;
  sessionId: string;
  deviceId: string;
  kind: NotificationTokenKind;
  token: string;
  keys: { p256dh: string; auth: string } | null;
  userAgent: string | null;
};

/**
 * One registration per user and device: a new token for the device replaces the old one and
 * moves to the current session. A token is one browser's: another row holding it that is
 * provably this browser (see below) is dropped, so a device never gets a notice twice, nor
 * someone else's.
 */
export async function upsertDeviceToken(db: Db, registration: DeviceRegistration): Promise<void> {
  await db.transaction(async (tx) => {
    // Another row with this token is dropped when it is provably this browser: this person's
    // (another device id), this device id (someone else used this device), or a Web Push
    // subscription with the same secret. Knowing someone's token alone moves nothing.
    const sameBrowser = [
      eq(notificationTokens.userId, registration.userId),
      eq(notificationTokens.deviceId, registration.deviceId),
      ...(registration.keys
        ? [sql`${notificationTokens.keys}->>'auth' = ${registration.keys.auth}`]
        : []),
    ];
    await tx
      .delete(notificationTokens)
      .where(
        and(
          eq(notificationTokens.token, registration.token),
          or(
            ne(notificationTokens.userId, registration.userId),
            ne(notificationTokens.deviceId, registration.deviceId),
          ),
          or(...sameBrowser),
        ),
      );
    const { userId: _u, deviceId: _d, ...changes } = registration;
    await tx
      .insert(notificationTokens)
      .values(registration)
      .onConflictDoUpdate({
        target: [notificationTokens.userId, notificationTokens.deviceId],
        set: { ...changes, updatedAt: sql`now()` },
      });
    const kept = tx
      .select({ id: notificationTokens.id })
      .from(notificationTokens)
      .where(eq(notificationTokens.userId, registration.userId))
      .orderBy(desc(notificationTokens.updatedAt))
      .limit(MAX_DEVICES_PER_USER);
    await tx
      .delete(notificationTokens)
      .where(
        and(
          eq(notificationTokens.userId, registration.userId),
          notInArray(notificationTokens.id, kept),
        ),
      );
  });
}

export async function removeDeviceToken(db: Db, userId: string, deviceId: string): Promise<void> {
  await db
    .delete(notificationTokens)
    .where(and(eq(notificationTokens.userId, userId), eq(notificationTokens.deviceId, deviceId)));
}

/** Signing out: sessions are revoked, never deleted, so the foreign key's cascade never fires. */
export async function removeSessionTokens(db: Db, sessionId: string): Promise<void> {
  await db.delete(notificationTokens).where(eq(notificationTokens.sessionId, sessionId));
}

export async function removeTokens(db: Db, ids: string[]): Promise<void> {
  if (ids.length > 0)
    await db.delete(notificationTokens).where(inArray(notificationTokens.id, ids));
}

/**
 * Registrations whose session still lives: a session revoked elsewhere (a password reset signs
 * out everywhere, a stolen refresh token ends its session) no longer receives notices. A
 * profile switch revokes too; the PWA re-registers on the next load, which rebinds the row.
 */
const sessionIsLive = or(
  isNull(notificationTokens.sessionId),
  and(isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)),
);

export async function findLiveDevices(
  db: Db,
  userIds: readonly string[],
  kinds: readonly NotificationTokenKind[],
): Promise<NotificationToken[]> {
  if (userIds.length === 0 || kinds.length === 0) return [];
  const rows = await db
    .select({ token: notificationTokens })
    .from(notificationTokens)
    .leftJoin(sessions, eq(sessions.id, notificationTokens.sessionId))
    .where(
      and(
        inArray(notificationTokens.userId, [...userIds]),
        inArray(notificationTokens.kind, [...kinds]),
        sessionIsLive,
      ),
    );
  return rows.map((row) => row.token);
}

export async function isDeviceRegistered(
  db: Db,
  userId: string,
  deviceId: string,
): Promise<boolean> {
  const rows = await db
    .select({ id: notificationTokens.id })
    .from(notificationTokens)
    .leftJoin(sessions, eq(sessions.id, notificationTokens.sessionId))
    .where(
      and(
        eq(notificationTokens.userId, userId),
        eq(notificationTokens.deviceId, deviceId),
        sessionIsLive,
      ),
    );
  return rows.length > 0;
}
