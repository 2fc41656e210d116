import { and, arrayContains, eq, gt, isNull } from 'drizzle-orm';
import { auditLog, kioskDevices, memberships, organizations, users } from '@platform/schema/db';
import type { Claim } from '@platform/schema/organizations/claims';
import type { Db } from '../db/open-database.ts';

/** A kiosk lasts a year unless left or revoked earlier; the organisation's own device stays put. */
export const KIOSK_CREDENTIAL_DAYS = 365;
export const KIOSK_CLAIM: Claim = 'manage-kiosk';

export async function insertKioskDevice(
  db: Db,
  input: {
    orgId: string;
    startedByUserId: string;
    tokenHash: string;
    userAgent: string | undefined;
  },
): Promise<string> {
  const [row] = await db
    .insert(kioskDevices)
    .values({
      orgId: input.orgId,
      startedByUserId: input.startedByUserId,
      tokenHash: input.tokenHash,
      userAgent: input.userAgent?.slice(0, 300) ?? null,
      expiresAt: new Date(Date.now() + KIOSK_CREDENTIAL_DAYS * 86_400_000),
    })
    .returning({ id: kioskDevices.id });
  if (!row) throw new Error('kiosk insert returned nothing');
  return row.id;
}

/**
 * The live kiosk a credential names, with its organisation and the person who started it.
 * Live means: not left or revoked, not expired, and its starter still staff of the
 * organisation holding manage-kiosk — taking the claim away ends their kiosks at once.
 */
export async function findLiveKiosk(db: Db, where: { tokenHash: string } | { id: string }) {
  const [row] = await db
    .select({ kiosk: kioskDevices, org: organizations, starter: users })
    .from(kioskDevices)
    .innerJoin(organizations, eq(organizations.id, kioskDevices.orgId))
    .innerJoin(users, eq(users.id, kioskDevices.startedByUserId))
    .innerJoin(
      memberships,
      and(
        eq(memberships.orgId, kioskDevices.orgId),
        eq(memberships.userId, kioskDevices.startedByUserId),
        eq(memberships.kind, 'staff'),
        arrayContains(memberships.claims, [KIOSK_CLAIM]),
      ),
    )
    .where(
      and(
        'id' in where ? eq(kioskDevices.id, where.id) : eq(kioskDevices.tokenHash, where.tokenHash),
        isNull(kioskDevices.revokedAt),
        gt(kioskDevices.expiresAt, new Date()),
      ),
    );
  return row ?? null;
}
export type LiveKiosk = NonNullable<Awaited<ReturnType<typeof findLiveKiosk>>>;

export async function revokeKiosk(db: Db, id: string): Promise<void> {
  await db
    .update(kioskDevices)
    .set({ revokedAt: new Date() })
    .where(and(eq(kioskDevices.id, id), isNull(kioskDevices.revokedAt)));
}

/** Who started or left a kiosk, and when (the audit trail of decision 0006). */
export async function recordKioskEvent(
  db: Db,
  event: { orgId: string; userId: string; kioskId: string; action: 'kiosk-started' | 'kiosk-left' },
): Promise<void> {
  await db.insert(auditLog).values({
    orgId: event.orgId,
    actorUserId: event.userId,
    subjectUserId: event.userId,
    action: event.action,
    detail: { kioskId: event.kioskId },
  });
}
