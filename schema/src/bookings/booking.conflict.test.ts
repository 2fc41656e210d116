import { describe, expect, it } from 'vitest';
import type { BookingDoc } from './booking.zod.ts';
import { mergeBookings } from './booking.conflict.ts';

const booking = (
  status: BookingDoc['status'],
  updatedAt: string,
  extra: Partial<BookingDoc> = {},
) => ({
  id: 'b1',
  orgId: 'o1',
  customerUserId: 'c1',
  customerName: 'Casey',
  occurrenceId: 'yoga',
  status,
  appointment: null,
  joinWaitlist: false,
  paidWith: null,
  refusal: null,
  requestedAt: '2026-11-23T09:00:00.000Z',
  decidedAt: null,
  checkedInAt: null,
  updatedAt,
  _deleted: false,
  ...extra,
});

describe('mergeBookings', () => {
  it('never lets a customer’s offline change undo attendance recorded by staff', () => {
    expect(
      mergeBookings(
        booking('attended', '2026-11-23T10:00:00.000Z'),
        booking('cancelled', '2026-11-23T11:00:00.000Z'),
      ).status,
    ).toBe('attended');
  });
  it('keeps a cancellation over a booking, whichever came later', () => {
    expect(
      mergeBookings(
        booking('booked', '2026-11-23T12:00:00.000Z'),
        booking('cancelled', '2026-11-23T11:00:00.000Z'),
      ).status,
    ).toBe('cancelled');
    expect(
      mergeBookings(
        booking('cancelled', '2026-11-23T11:00:00.000Z'),
        booking('booked', '2026-11-23T12:00:00.000Z'),
      ).status,
    ).toBe('cancelled');
  });
  it('takes the server’s answer to a request the device still shows as pending', () => {
    for (const verdict of ['booked', 'waitlisted', 'refused'] as const)
      expect(
        mergeBookings(
          booking(verdict, '2026-11-23T10:00:00.000Z'),
          booking('requested', '2026-11-23T11:00:00.000Z'),
        ).status,
      ).toBe(verdict);
  });
  it('keeps what only the server sets, even when the device’s change wins', () => {
    const master = booking('booked', '2026-11-23T10:00:00.000Z', {
      paidWith: 'credit',
      decidedAt: '2026-11-23T10:00:00.000Z',
    });
    const local = booking('cancelled', '2026-11-23T11:00:00.000Z', {
      paidWith: 'free',
      refusal: 'made up',
    });
    expect(mergeBookings(master, local)).toMatchObject({
      status: 'cancelled',
      paidWith: 'credit',
      refusal: null,
      decidedAt: '2026-11-23T10:00:00.000Z',
    });
  });
});
