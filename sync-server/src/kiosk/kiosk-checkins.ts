import { and, eq, inArray, sql } from 'drizzle-orm';
import { classOccurrences } from '@platform/schema/db';
import type { BookingDoc } from '@platform/schema/bookings/booking.zod';
import {
  kioskCheckInRefusal,
  type CheckInClassTime,
} from '@platform/schema/kiosk/kiosk-check-in.rules';
import { accessTo } from '@platform/schema/sync/access.rules';
import type { Tx } from '../db/open-database.ts';
import type { Actor } from '../sync/actor.ts';
import type { Change, RuleError, WriteContext } from '../sync/collection-definition.ts';

type WriteBookings = (
  tx: Tx,
  actor: Actor,
  changes: Array<Change<BookingDoc>>,
  context: WriteContext,
) => Promise<RuleError[]>;

/**
 * Booking writes of an actor the shared rule limits to check-ins (a kiosk): each change must
 * be a check-in of a booked person to a class time of the organisation that is on now, or the
 * undo of a tap just made (schema/src/kiosk/kiosk-check-in.rules.ts) — judged here, where the
 * class times are known, before the bookings' one write path. Anyone else goes straight to
 * that write path.
 */
export function limitToCheckIns(write: WriteBookings): WriteBookings {
  return async (tx, actor, changes, context) => {
    if (!accessTo('bookings', actor)?.checkInsOnly) return write(tx, actor, changes, context);
    const orgId = actor.orgId ?? '';
    // The class time each booking names as the server has it (the device's copy of the booking
    // may not move it: the rule refuses any other field). Read after the push took the
    // bookings' locks, which a staff change to class times waits for (holdBookingWriters), so
    // a cancellation cannot slip in between this read and the write.
    const classTimes = await classTimesOf(
      tx,
      orgId,
      changes.map((change) => change.master?.occurrenceId ?? change.next.occurrenceId),
    );
    const errors: RuleError[] = [];
    for (const { next, master } of changes) {
      const occurrence = classTimes.get(master?.occurrenceId ?? next.occurrenceId) ?? null;
      const refusal = kioskCheckInRefusal(master, next, occurrence, context.now);
      if (refusal) errors.push({ id: next.id, message: refusal });
    }
    if (errors.length) return errors;
    // The write path knows two parties: customers (their own family's bookings, book or cancel)
    // and staff (view 'org': anyone's, and check-ins — it stamps checkedInAt from the change's
    // time). A kiosk is neither; what it sends was just limited to check-ins and their undo,
    // which the write path allows staff, so it is written as staff holding manage-schedule
    // would write it. userId stays the kiosk's starter, answerable for the device.
    return write(tx, { ...actor, view: 'org', claims: ['manage-schedule'] }, changes, context);
  };
}

async function classTimesOf(
  tx: Tx,
  orgId: string,
  ids: readonly string[],
): Promise<Map<string, CheckInClassTime>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  // Bookings name class times by text (an id that is no UUID names none).
  const rows = await tx
    .select({
      id: classOccurrences.id,
      orgId: classOccurrences.orgId,
      startsAt: classOccurrences.startsAt,
      endsAt: classOccurrences.endsAt,
      status: classOccurrences.status,
      deleted: classOccurrences.deleted,
    })
    .from(classOccurrences)
    .where(
      and(
        eq(classOccurrences.orgId, orgId),
        inArray(sql<string>`${classOccurrences.id}::text`, wanted),
      ),
    );
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        orgId: row.orgId,
        startsAt: row.startsAt.toISOString(),
        endsAt: row.endsAt.toISOString(),
        // A class time removed from the timetable takes no check-ins, as a cancelled one.
        status: row.deleted ? 'cancelled' : row.status,
      },
    ]),
  );
}
