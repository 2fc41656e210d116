import type { BookingDoc } from '@platform/schema/bookings/booking.zod';
import type { Tx } from '../db/open-database.ts';
import type { Actor } from '../sync/actor.ts';
import type { Change, RuleError } from '../sync/collection-definition.ts';
import { membersOf } from '../sync/memberships.ts';
import { upsertBookings } from './bookings.repository.ts';

// The replication registry (sync/collections) reads stored rows as documents through here.
export { bookingToDoc } from './bookings.repository.ts';

export const bookingMessages = {
  notACustomer: 'Bookings can only be made for customers of this organization.',
  customerStatus: 'Customers can book or cancel; attendance is recorded by staff.',
  cannotMove: 'A booking cannot be moved to another person or class; cancel it and book again.',
  cannotDelete: 'Cancel a booking instead of deleting it.',
  settledByStaff: 'This booking was settled by staff and can no longer be changed.',
} as const;

const staffStatuses: ReadonlyArray<BookingDoc['status']> = ['attended', 'no-show'];

function ruleBroken(actor: Actor, { next, master }: Change<BookingDoc>): string | null {
  const isCustomer = actor.view === 'customer';
  if (master && (master.customerUserId !== next.customerUserId || master.occurrenceId !== next.occurrenceId)) return bookingMessages.cannotMove;
  // Attendance recorded by staff, or a booking staff removed, stays as staff left it.
  const settled = master && (staffStatuses.includes(master.status) || master._deleted);
  if (isCustomer && settled && (next.status !== master.status || next._deleted !== master._deleted)) {
    return bookingMessages.settledByStaff;
  }
  if (isCustomer && next._deleted) return bookingMessages.cannotDelete;
  if (isCustomer && next.status !== 'booked' && next.status !== 'cancelled') return bookingMessages.customerStatus;
  return null;
}

/** The one write path for bookings (the calendar issue adds occurrences and capacity). */
export async function writeBookings(tx: Tx, actor: Actor, changes: Array<Change<BookingDoc>>): Promise<RuleError[]> {
  const errors: RuleError[] = [];
  for (const change of changes) {
    const broken = ruleBroken(actor, change);
    if (broken) errors.push({ id: change.next.id, message: broken });
  }
  const newOnes = changes.filter((c) => !c.master);
  if (newOnes.length) {
    const customers = await membersOf(tx, newOnes[0]?.next.orgId ?? '', 'customer', newOnes.map((c) => c.next.customerUserId));
    for (const { next } of newOnes) if (!customers.has(next.customerUserId)) errors.push({ id: next.id, message: bookingMessages.notACustomer });
  }
  if (errors.length === 0) await upsertBookings(tx, changes.map((c) => c.next));
  return errors;
}
