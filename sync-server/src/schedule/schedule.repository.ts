import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import {
  classOccurrences,
  memberships,
  organizations,
  products,
  scheduleClasses,
  users,
} from '@platform/schema/db';
import { fullName } from '@platform/schema/app/full-name.rules';
import type { Db, Tx } from '../db/open-database.ts';

export type ClassRow = typeof scheduleClasses.$inferSelect;
export type OccurrenceRow = typeof classOccurrences.$inferSelect;
export type NewOccurrenceRow = typeof classOccurrences.$inferInsert;

export async function orgScheduleSettings(
  db: Db | Tx,
  orgId: string,
): Promise<{ timezone: string | undefined; cancelCutoffHours: number | undefined } | null> {
  const [row] = await db
    .select({ attributes: organizations.attributes })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  if (!row) return null;
  return {
    timezone: row.attributes.timezone,
    cancelCutoffHours: row.attributes.bookingCancelCutoffHours,
  };
}

export async function saveCancelCutoff(tx: Tx, orgId: string, hours: number): Promise<void> {
  await tx
    .update(organizations)
    .set({
      attributes: sql`${organizations.attributes} || ${JSON.stringify({ bookingCancelCutoffHours: hours })}::jsonb`,
    })
    .where(eq(organizations.id, orgId));
}

/** The staff member's name as customers see it, or null if they are not staff here. */
export async function staffNameOf(
  db: Db | Tx,
  orgId: string,
  userId: string,
): Promise<string | null> {
  const [row] = await db
    .select({ firstName: users.firstName, lastName: users.lastName })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(memberships.orgId, orgId),
        eq(memberships.userId, userId),
        eq(memberships.kind, 'staff'),
      ),
    );
  return row ? fullName(row) : null;
}

/** The organisation's products among `ids`, with their punch-card groups. */
export async function productsAmong(db: Db | Tx, orgId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: products.id, punchCardConfiguration: products.punchCardConfiguration })
    .from(products)
    .where(and(eq(products.orgId, orgId), inArray(products.id, [...ids])));
}

/** Every punch-card group id the organisation's products define. */
export async function punchCardGroupIdsOf(db: Db | Tx, orgId: string): Promise<Set<string>> {
  const rows = await db
    .select({ punchCardConfiguration: products.punchCardConfiguration })
    .from(products)
    .where(eq(products.orgId, orgId));
  return new Set(rows.flatMap((row) => row.punchCardConfiguration.groups.map((g) => g.id)));
}

export async function insertClass(tx: Tx, row: typeof scheduleClasses.$inferInsert) {
  const [saved] = await tx.insert(scheduleClasses).values(row).returning();
  if (!saved) throw new Error('The class was not written.');
  return saved;
}

export async function findClass(db: Db | Tx, orgId: string, classId: string, lock = false) {
  const query = db
    .select()
    .from(scheduleClasses)
    .where(
      and(
        eq(scheduleClasses.orgId, orgId),
        eq(scheduleClasses.id, classId),
        eq(scheduleClasses.deleted, false),
      ),
    );
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

export async function updateClass(
  tx: Tx,
  classId: string,
  set: Partial<typeof scheduleClasses.$inferInsert>,
): Promise<ClassRow> {
  const [saved] = await tx
    .update(scheduleClasses)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(scheduleClasses.id, classId))
    .returning();
  if (!saved) throw new Error('The class was not updated.');
  return saved;
}

/** A series' occurrences that have not ended, locked, in time order. */
export async function upcomingOccurrencesOf(tx: Tx, classId: string, now: Date) {
  return tx
    .select()
    .from(classOccurrences)
    .where(
      and(
        eq(classOccurrences.classId, classId),
        eq(classOccurrences.deleted, false),
        gt(classOccurrences.endsAt, now),
      ),
    )
    .orderBy(asc(classOccurrences.id))
    .for('update');
}

export async function ruleDaysOf(tx: Tx, classId: string): Promise<Set<string>> {
  const rows = await tx
    .select({ ruleDay: classOccurrences.ruleDay })
    .from(classOccurrences)
    .where(eq(classOccurrences.classId, classId));
  return new Set(rows.map((row) => row.ruleDay));
}

export async function insertOccurrences(tx: Tx, rows: NewOccurrenceRow[]): Promise<number> {
  let written = 0;
  // In slices: a series has at most 500, but each row has many parameters.
  for (let i = 0; i < rows.length; i += 200) {
    const slice = rows.slice(i, i + 200);
    if (slice.length === 0) continue;
    await tx.insert(classOccurrences).values(slice);
    written += slice.length;
  }
  return written;
}

export async function updateOccurrence(
  tx: Tx,
  id: string,
  set: Partial<typeof classOccurrences.$inferInsert>,
): Promise<OccurrenceRow> {
  const [saved] = await tx
    .update(classOccurrences)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(classOccurrences.id, id))
    .returning();
  if (!saved) throw new Error('The class time was not updated.');
  return saved;
}

/** Occurrences of the organisation by id, locked in id order (one order for every writer). */
export async function lockOccurrences(tx: Tx, orgId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return tx
    .select()
    .from(classOccurrences)
    .where(
      and(
        eq(classOccurrences.orgId, orgId),
        inArray(classOccurrences.id, [...ids]),
        eq(classOccurrences.deleted, false),
      ),
    )
    .orderBy(asc(classOccurrences.id))
    .for('update');
}

export async function findOccurrence(db: Db | Tx, orgId: string, id: string) {
  const [row] = await db
    .select()
    .from(classOccurrences)
    .where(
      and(
        eq(classOccurrences.orgId, orgId),
        eq(classOccurrences.id, id),
        eq(classOccurrences.deleted, false),
      ),
    );
  return row ?? null;
}

/** Future occurrences of the organisation: their cancel-by moves with the cut-off. */
export async function moveCancelBy(tx: Tx, orgId: string, hours: number, now: Date) {
  await tx
    .update(classOccurrences)
    .set({
      cancelBy: sql`${classOccurrences.startsAt} - make_interval(hours => ${hours})`,
      updatedAt: new Date(),
    })
    .where(and(eq(classOccurrences.orgId, orgId), gt(classOccurrences.startsAt, now)));
}

export async function orgPlatformOf(db: Db | Tx, orgId: string) {
  const [row] = await db
    .select({ platform: organizations.platform })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  return row?.platform ?? null;
}

/** The organisation's staff, by name: who may lead a class. */
export async function staffOf(db: Db | Tx, orgId: string) {
  const rows = await db
    .select({ userId: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.orgId, orgId), eq(memberships.kind, 'staff')))
    .orderBy(asc(users.firstName), asc(users.lastName));
  return rows.map((row) => ({ userId: row.userId, name: fullName(row) }));
}
