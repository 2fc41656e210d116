import { describe, expect, it } from 'vitest';
import { mergeBookings } from './booking.conflict.ts';

const booking = (status: 'booked' | 'cancelled' | 'attended' | 'no-show', updatedAt: string) => ({
  id: 'b1',
  orgId: 'o1',
  customerUserId: 'c1',
  occurrenceId: 'yoga',
  status,
  updatedAt,
  _deleted: false,
});

describe('mergeBookings', () => {
  it('never lets a customer’s offline change undo attendance recorded by staff', () => {
    expect(mergeBookings(booking('attended', '2026-11-23T10:00:00.000Z'), booking('cancelled', '2026-11-23T11:00:00.000Z')).status).toBe('attended');
  });
  it('keeps a cancellation over a booking, whichever came later', () => {
    expect(mergeBookings(booking('booked', '2026-11-23T12:00:00.000Z'), booking('cancelled', '2026-11-23T11:00:00.000Z')).status).toBe('cancelled');
    expect(mergeBookings(booking('cancelled', '2026-11-23T11:00:00.000Z'), booking('booked', '2026-11-23T12:00:00.000Z')).status).toBe('cancelled');
  });
});
