import { lastWriterWins, type Replicated } from '../sync/conflict.rules.ts';
import type { BookingDoc } from './booking.zod.ts';

type Booking = Replicated<BookingDoc>;
const staffStatuses: ReadonlyArray<BookingDoc['status']> = ['attended', 'no-show'];
const verdicts: ReadonlyArray<BookingDoc['status']> = ['booked', 'waitlisted', 'refused'];

/**
 * Attendance recorded by staff is never undone by a customer's offline change; otherwise a
 * cancellation made anywhere stands (nobody is charged for a class they cancelled); a request
 * the server has already answered takes the answer; between two other changes the later wins.
 * What only the server sets (payment, refusal, decision time, check-in) is always the master's.
 */
export function mergeBookings(master: Booking, local: Booking): Booking {
  if (master._deleted || local._deleted) return lastWriterWins(master, local);
  const serverSide = {
    paidWith: master.paidWith,
    refusal: master.refusal,
    decidedAt: master.decidedAt,
    checkedInAt: master.checkedInAt,
    // The person's name as the server last wrote it (it refreshes it on every write).
    customerName: master.customerName,
  };
  if (staffStatuses.includes(master.status) && !staffStatuses.includes(local.status)) return master;
  if (staffStatuses.includes(local.status) && !staffStatuses.includes(master.status))
    return { ...local, ...serverSide };
  if (master.status === 'cancelled' && local.status !== 'cancelled') return master;
  if (local.status === 'cancelled' && master.status !== 'cancelled')
    return { ...local, ...serverSide };
  if (local.status === 'requested' && verdicts.includes(master.status)) return master;
  const later = lastWriterWins(master, local);
  return later === master ? master : { ...local, ...serverSide };
}
