import type { BookingDoc } from '@platform/schema/bookings/booking.zod';

const statusLabel: Record<BookingDoc['status'], string> = {
  requested: 'Pending',
  booked: 'Booked',
  waitlisted: 'Waitlisted',
  refused: 'Refused',
  cancelled: 'Cancelled',
  attended: 'Checked in',
  'no-show': 'No-show',
};

/** How a place was paid for, as the roster names it; nothing for a free place or none yet. */
const paidLabel: Record<NonNullable<BookingDoc['paidWith']>, string | null> = {
  free: null,
  credit: 'credit',
  subscription: 'membership',
  card: 'paid by card',
  desk: 'pay at desk',
};

/** A roster line's status: "Booked · paid by card", "Checked in · credit", "Waitlisted". */
export function rosterStatus(booking: Pick<BookingDoc, 'status' | 'paidWith'>): string {
  const paid = booking.paidWith ? paidLabel[booking.paidWith] : null;
  return paid ? `${statusLabel[booking.status]} · ${paid}` : statusLabel[booking.status];
}
