import { lastWriterWins, type Replicated } from '../sync/conflict.rules.ts';
import type { BookingDoc } from './booking.zod.ts';

type Booking = Replicated<BookingDoc>;
const staffStatuses: ReadonlyArray<BookingDoc['status']> = ['attended', 'no-show'];

/**
 * Attendance recorded by staff is never undone by a customer's offline change; otherwise a
 * cancellation made anywhere stands (nobody is charged for a class they cancelled), and
 * between two bookings the later change wins.
 */
export function mergeBookings(master: Booking, local: Booking): Booking {
  if (master._deleted || local._deleted) return lastWriterWins(master, local);
  if (staffStatuses.includes(master.status) && !staffStatuses.includes(local.status)) return master;
  if (staffStatuses.includes(local.status) && !staffStatuses.includes(master.status)) return local;
  if (master.status === 'cancelled' && local.status === 'booked') return master;
  if (local.status === 'cancelled' && master.status === 'booked') return local;
  return lastWriterWins(master, local);
}
