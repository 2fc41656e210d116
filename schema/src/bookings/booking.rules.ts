import type { BookingDoc, BookingStatus } from './booking.zod.ts';

/**
 * The booking rules both sides apply (decision 0066): the device to show what will happen
 * (offline too), the server to decide. The server is the one that decides: a device's guess is
 * shown as pending until the verdict replicates back.
 */

export const bookingMessages = {
  notACustomer: 'Bookings can only be made for customers of this organization.',
  customerStatus: 'Customers can book or cancel; attendance is recorded by staff.',
  staffStatus: 'Staff add people, cancel, check in or mark a no-show; the server decides the rest.',
  cannotMove: 'A booking cannot be moved to another person or class; cancel it and book again.',
  cannotDelete: 'Cancel a booking instead of deleting it.',
  settledByStaff: 'This booking was settled by staff and can no longer be changed.',
  newMustRequest: 'A new booking starts as a request; the server decides whether it is booked.',
  noSuchClass: 'This class time no longer exists.',
  classCancelled: 'This class was cancelled.',
  classStarted: 'This class has already started.',
  full: 'This class is full.',
  alreadyBooked: 'Already booked for this class.',
  notEntitled:
    'This class needs a membership or a punch card that includes it; none of yours has one left.',
  payAtBooking:
    'This class has a price and nothing you hold includes it: pay for it by card when you book (online), buy a membership or class pack in the Shop, or ask at the front desk.',
  pastCutoff: 'Cancellations close {hours} before the class; ask the organization.',
  notCheckedInYet: 'Check in only people who are booked for this class.',
} as const;

/** The places a booking takes: waiting and asking take none. */
export const takesPlace = (status: BookingStatus): boolean =>
  status === 'booked' || status === 'attended' || status === 'no-show';

/** A booking still in the running for the class (no new request may duplicate it). */
export const isActive = (status: BookingStatus): boolean =>
  status === 'requested' || status === 'waitlisted' || takesPlace(status);

export type ClassTerms = {
  priceMinor: number | null;
  entitlingProductIds: readonly string[];
  punchCardGroupIds: readonly string[];
};

export type Holdings = {
  /** Products of the person's subscriptions that are in force (active, past due, scheduled
   * and started). */
  activeProductIds: ReadonlySet<string>;
  /** Credits left per punch-card group. */
  creditsByGroup: ReadonlyMap<string, number>;
};

export type Payment =
  | { kind: 'free' }
  | { kind: 'subscription'; productId: string }
  | { kind: 'credit'; groupId: string }
  | { kind: 'pay'; priceMinor: number }
  | { kind: 'none' };

/**
 * How a place would be paid for: a class nothing entitles and without a price is free; else a
 * subscription in force that includes it; else a credit of one of its punch-card groups (the
 * group with most left, ties by the order staff listed them); else its price, paid at booking;
 * else nothing can.
 */
export function paymentFor(terms: ClassTerms, holdings: Holdings): Payment {
  const entitled = terms.entitlingProductIds.length + terms.punchCardGroupIds.length > 0;
  if (!entitled && (terms.priceMinor === null || terms.priceMinor === 0)) return { kind: 'free' };
  const product = terms.entitlingProductIds.find((id) => holdings.activeProductIds.has(id));
  if (product) return { kind: 'subscription', productId: product };
  let best: { groupId: string; left: number } | null = null;
  for (const groupId of terms.punchCardGroupIds) {
    const left = holdings.creditsByGroup.get(groupId) ?? 0;
    if (left > 0 && (!best || left > best.left)) best = { groupId, left };
  }
  if (best) return { kind: 'credit', groupId: best.groupId };
  if (terms.priceMinor !== null && terms.priceMinor > 0)
    return { kind: 'pay', priceMinor: terms.priceMinor };
  return { kind: 'none' };
}

/** The instant customers may cancel until: `cutoffHours` before the start. */
export const cancelByOf = (startsAt: number, cutoffHours: number): number =>
  startsAt - cutoffHours * 3_600_000;

export const pastCutoffMessage = (cutoffHours: number): string =>
  bookingMessages.pastCutoff.replace(
    '{hours}',
    cutoffHours === 1 ? '1 hour' : `${cutoffHours} hours`,
  );

/**
 * Whether a customer's cancellation made at `at` stands: before the cut-off, or of a booking
 * that holds no place (a request or a place on the waitlist may always be withdrawn).
 */
export function customerMayCancel(
  booking: Pick<BookingDoc, 'status'>,
  occurrence: { cancelBy: string },
  at: number,
): boolean {
  if (!takesPlace(booking.status)) return true;
  return at <= Date.parse(occurrence.cancelBy);
}

/** The transitions each side may push (the server's verdicts are its own). */
export function allowedChange(
  who: 'customer' | 'staff',
  from: BookingStatus | null,
  to: BookingStatus,
): boolean {
  if (from === null) return to === 'requested';
  if (from === to) return true;
  if (to === 'cancelled') return from !== 'attended' && from !== 'no-show' ? true : who === 'staff';
  // Asking again after a refusal or a cancellation (with or without the waitlist).
  if (to === 'requested') return from === 'refused' || from === 'cancelled';
  if (who === 'customer') return false;
  // Staff: check in, mark a no-show, or undo either back to booked.
  if (to === 'attended' || to === 'no-show') return takesPlace(from);
  if (to === 'booked') return from === 'attended' || from === 'no-show';
  return false;
}

/** Waitlist order: whoever reached the server first, then by id for a stable order. */
export function waitlistOrder(
  a: Pick<BookingDoc, 'decidedAt' | 'id'>,
  b: Pick<BookingDoc, 'decidedAt' | 'id'>,
): number {
  const at = (a.decidedAt ?? '').localeCompare(b.decidedAt ?? '');
  return at !== 0 ? at : a.id.localeCompare(b.id);
}
