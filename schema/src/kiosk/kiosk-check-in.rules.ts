import type { BookingDoc } from '../bookings/booking.zod.ts';
import type { OccurrenceDoc } from '../schedule/schedule.zod.ts';
import { CURRENT_BOOKINGS_MS } from '../sync/access.rules.ts';
import { syncMessages } from '../sync/sync.messages.ts';
import { clockTimeRefusal } from '../time-tracking/time-clock.rules.ts';
import { kioskMessages } from './kiosk.messages.ts';

type Booking = BookingDoc & { _deleted: boolean };

/** What the check-in rule reads of a class time (a stored row or a replicated document). */
export type CheckInClassTime = Pick<
  OccurrenceDoc,
  'id' | 'orgId' | 'startsAt' | 'endsAt' | 'status'
>;

/** Check-in opens this long before a class time starts… */
export const CHECK_IN_OPENS_BEFORE_MS = 60 * 60_000;
/** …and closes this long after it ends (a desk that writes up the evening class next morning). */
export const CHECK_IN_CLOSES_AFTER_MS = 12 * 3_600_000;
/** A mistaken tap may be undone at the kiosk this long after the check-in. */
export const CHECK_IN_UNDO_MS = 10 * 60_000;

/** The fields a kiosk's check-in (or its undo) changes; every other one stays as it was. */
const checkInFields: ReadonlySet<string> = new Set(['status', 'checkedInAt', 'updatedAt']);

/** Whether check-in to this class time is open at `at` (epoch ms): the kiosk and the server. */
export function checkInOpen(occurrence: CheckInClassTime, at: number): boolean {
  return (
    occurrence.status !== 'cancelled' &&
    at >= Date.parse(occurrence.startsAt) - CHECK_IN_OPENS_BEFORE_MS &&
    at < Date.parse(occurrence.endsAt) + CHECK_IN_CLOSES_AFTER_MS
  );
}

/**
 * Whether a booking is within a kiosk's reach at `now` (the server's clock): a class time of
 * the booking's organisation that ended less than CURRENT_BOOKINGS_MS ago or is still to come
 * — the same window the kiosk's pull is limited to (access `currentOnly`).
 */
export function withinKioskReach(
  booking: Pick<BookingDoc, 'orgId' | 'occurrenceId'>,
  occurrence: CheckInClassTime | null,
  now: Date,
): boolean {
  return (
    occurrence !== null &&
    occurrence.orgId === booking.orgId &&
    occurrence.id === booking.occurrenceId &&
    Date.parse(occurrence.endsAt) > now.getTime() - CURRENT_BOOKINGS_MS
  );
}

/**
 * What a kiosk may change through replication (access `checkInsOnly`): an existing booking
 * going from booked to attended — or back, to undo a mistaken tap within CHECK_IN_UNDO_MS —
 * with nothing else changed but the status, `checkedInAt` and `updatedAt`. Never a new
 * booking, a deletion, a cancellation, another person or class. The check-in is judged at the
 * time it was made on the device (`updatedAt`, as clock moves are: a kiosk offline during the
 * class sends it later), which may not lie ahead of the server; the class time must be
 * `occurrence` (the booking's, as the server has it, or null), not cancelled, and open
 * (checkInOpen). A booking out of the kiosk's reach gets the words of any document out of
 * reach (decision 0048). Returns why a change is refused, or null.
 */
export function kioskCheckInRefusal(
  master: Booking | null,
  next: Booking,
  occurrence: CheckInClassTime | null,
  now: Date,
): string | null {
  if (master && !withinKioskReach(master, occurrence, now)) return syncMessages.notAmongYours;
  if (!master || !occurrence || master._deleted || next._deleted) return kioskMessages.checkInsOnly;
  if (!onlyCheckInChanged(master, next)) return kioskMessages.checkInsOnly;
  const at = Date.parse(next.updatedAt);
  const from = master.status;
  const to = next.status;
  // Sent again, or by two kiosks that both tapped: the same state, nothing to judge.
  if (from === to && (to === 'booked' || to === 'attended')) return null;
  if (from === 'booked' && to === 'attended') {
    const ahead = clockTimeRefusal(new Date(at), now);
    if (ahead) return ahead;
    if (occurrence.status === 'cancelled') return kioskMessages.checkInClassCancelled;
    return checkInOpen(occurrence, at) ? null : kioskMessages.checkInClosed;
  }
  if (from === 'attended' && to === 'booked') {
    const ahead = clockTimeRefusal(new Date(at), now);
    if (ahead) return ahead;
    // A cancelled class time gives its places back: none is taken again by an undo.
    if (occurrence.status === 'cancelled') return kioskMessages.checkInClassCancelled;
    // After the check-in it undoes (and after the booking's last change), within the undo time.
    const checkedIn = master.checkedInAt ? Date.parse(master.checkedInAt) : null;
    return checkedIn !== null &&
      at >= checkedIn &&
      at >= Date.parse(master.updatedAt) &&
      at - checkedIn <= CHECK_IN_UNDO_MS
      ? null
      : kioskMessages.undoTooLate;
  }
  return kioskMessages.checkInsOnly;
}

function onlyCheckInChanged(master: Booking, next: Booking): boolean {
  const fields = new Set([...Object.keys(master), ...Object.keys(next)]);
  return [...fields].every(
    (field) =>
      checkInFields.has(field) ||
      sameValue(
        (master as Record<string, unknown>)[field],
        (next as Record<string, unknown>)[field],
      ),
  );
}

/** Deep equality of JSON values, whatever the order of an object's keys (jsonb reorders them). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) =>
    sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}
