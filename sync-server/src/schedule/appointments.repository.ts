import { and, asc, eq, gt, inArray, lt, ne, sql } from 'drizzle-orm';
import { appointmentTypes, classOccurrences, staffAvailability } from '@platform/schema/db';
import type { Db, Tx } from '../db/open-database.ts';

export type AppointmentTypeRow = typeof appointmentTypes.$inferSelect;
export type AvailabilityRow = typeof staffAvailability.$inferSelect;

export async function insertAppointmentType(
  tx: Tx,
  row: typeof appointmentTypes.$inferInsert,
): Promise<AppointmentTypeRow> {
  const [saved] = await tx.insert(appointmentTypes).values(row).returning();
  if (!saved) throw new Error('The appointment type was not written.');
  return saved;
}

/** The organisation's appointment type (not archived), optionally locked. */
export async function findAppointmentType(db: Db | Tx, orgId: string, id: string, lock = false) {
  const query = db
    .select()
    .from(appointmentTypes)
    .where(
      and(
        eq(appointmentTypes.orgId, orgId),
        eq(appointmentTypes.id, id),
        eq(appointmentTypes.deleted, false),
      ),
    );
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

export async function updateAppointmentType(
  tx: Tx,
  id: string,
  set: Partial<typeof appointmentTypes.$inferInsert>,
): Promise<AppointmentTypeRow> {
  const [saved] = await tx
    .update(appointmentTypes)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(appointmentTypes.id, id))
    .returning();
  if (!saved) throw new Error('The appointment type was not updated.');
  return saved;
}

export async function availabilityOf(db: Db | Tx, orgId: string, userId: string) {
  const [row] = await db
    .select()
    .from(staffAvailability)
    .where(
      and(
        eq(staffAvailability.orgId, orgId),
        eq(staffAvailability.userId, userId),
        eq(staffAvailability.deleted, false),
      ),
    );
  return row ?? null;
}

export async function availabilityOfOrg(db: Db | Tx, orgId: string) {
  return db
    .select()
    .from(staffAvailability)
    .where(and(eq(staffAvailability.orgId, orgId), eq(staffAvailability.deleted, false)));
}

export async function saveAvailability(
  tx: Tx,
  row: Pick<AvailabilityRow, 'orgId' | 'userId' | 'staffName' | 'weekly' | 'exceptions'>,
): Promise<AvailabilityRow> {
  const [saved] = await tx
    .insert(staffAvailability)
    .values(row)
    .onConflictDoUpdate({
      target: [staffAvailability.orgId, staffAvailability.userId],
      set: {
        staffName: row.staffName,
        weekly: row.weekly,
        exceptions: row.exceptions,
        deleted: false,
        updatedAt: new Date(),
      },
    })
    .returning();
  if (!saved) throw new Error('The hours were not written.');
  return saved;
}

/**
 * Serialises every check of one staff member's slots (an advisory lock held to the end of the
 * transaction), in id order: two requests for overlapping times with the same person are
 * decided one after the other, the second seeing the first's appointment.
 */
export async function lockStaffSlots(tx: Tx, staffUserIds: readonly string[]): Promise<void> {
  const ids = [...new Set(staffUserIds.map((id) => id.toLowerCase()))].sort();
  if (ids.length === 0) return;
  // One statement, taken in the array's order: a caller may send its next statements (a class
  // time's row lock) behind this one without waiting (bookings.service.ts).
  await tx.execute(
    sql`select count(pg_advisory_xact_lock(hashtextextended('slots:' || id, 0))) from unnest(array[${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )}]::text[]) as id`,
  );
}

/**
 * What a staff member is taken by around a time, in every organisation they work for (one
 * person is in one place at a time): classes they lead, and appointments they give — each
 * widened by its own type's buffer, kept clear whatever type is asked for beside it. In
 * milliseconds, as the slot functions take them.
 */
export async function busyTimesOf(
  tx: Db | Tx,
  staffUserId: string,
  around: { from: Date; to: Date },
): Promise<Array<{ from: number; to: number; bufferMs: number }>> {
  // The widest buffer a type may have: an appointment that far off may still reach in.
  const reach = 240 * 60_000;
  const rows = await tx
    .select({
      from: classOccurrences.startsAt,
      to: classOccurrences.endsAt,
      bufferMinutes: appointmentTypes.bufferMinutes,
    })
    .from(classOccurrences)
    .leftJoin(appointmentTypes, eq(appointmentTypes.id, classOccurrences.appointmentTypeId))
    .where(
      and(
        eq(classOccurrences.coachUserId, staffUserId),
        eq(classOccurrences.deleted, false),
        ne(classOccurrences.status, 'cancelled'),
        lt(classOccurrences.startsAt, new Date(around.to.getTime() + reach)),
        gt(classOccurrences.endsAt, new Date(around.from.getTime() - reach)),
      ),
    )
    .orderBy(asc(classOccurrences.startsAt));
  return rows.map((row) => ({
    from: row.from.getTime(),
    to: row.to.getTime(),
    bufferMs: (row.bufferMinutes ?? 0) * 60_000,
  }));
}

/** Whether a class-time id is taken, in any organisation (a device names new appointments). */
export async function occurrenceIdTaken(tx: Tx, id: string): Promise<boolean> {
  const rows = await tx
    .select({ id: classOccurrences.id })
    .from(classOccurrences)
    .where(inArray(classOccurrences.id, [id]));
  return rows.length > 0;
}
