import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { kioskPins, memberships, users } from '@platform/schema/db';
import type { PinVerifier } from '@platform/schema/kiosk/kiosk-pin.rules';
import { timeTrackingClaims } from '@platform/schema/organizations/claims';
import type { Db, Tx } from '../db/open-database.ts';

export type KioskPinRow = typeof kioskPins.$inferSelect;

export async function savePin(db: Db, userId: string, pinHash: string, verifier: PinVerifier) {
  const values = {
    pinHash,
    verifierSalt: verifier.salt,
    verifierIterations: verifier.iterations,
    verifier: verifier.verifier,
    updatedAt: new Date(),
  };
  await db
    .insert(kioskPins)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: kioskPins.userId, set: values });
}

export async function deletePin(db: Db, userId: string) {
  await db.delete(kioskPins).where(eq(kioskPins.userId, userId));
}

export async function findPin(db: Db, userId: string): Promise<KioskPinRow | undefined> {
  const [row] = await db.select().from(kioskPins).where(eq(kioskPins.userId, userId));
  return row;
}

/** The claims that put a staff member on a kiosk's list: those that track time (spec §6). */
const clocksTime = sql`${memberships.claims} && array[${sql.join(
  timeTrackingClaims.map((claim) => sql`${claim}`),
  sql`, `,
)}]::text[]`;

/** Staff of the organisation who track time, by name, with their PIN verifiers (or none). */
export async function listKioskStaff(db: Db, orgId: string) {
  return db
    .select({
      userId: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      pin: kioskPins,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(kioskPins, eq(kioskPins.userId, users.id))
    .where(and(eq(memberships.orgId, orgId), eq(memberships.kind, 'staff'), clocksTime))
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id));
}

/** Which of `userIds` are on the organisation's kiosk list — one query. */
export async function kioskStaffAmong(
  tx: Db | Tx,
  orgId: string,
  userIds: string[],
): Promise<Set<string>> {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return new Set();
  const rows = await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(
      and(
        eq(memberships.orgId, orgId),
        eq(memberships.kind, 'staff'),
        inArray(memberships.userId, unique),
        clocksTime,
      ),
    );
  return new Set(rows.map((row) => row.userId));
}
