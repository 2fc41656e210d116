import { randomUUID } from 'node:crypto';

/** The sandbox's test cards as the pay form sends them: one that pays, one the bank declines. */
export const payCards = {
  visa: { number: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' },
  declining: { number: '4000000000000002', expMonth: 12, expYear: 2034, cvc: '123' },
} as const;

/** A pay-at-booking order (POST /api/bookings/pay) under a new checkout id. */
export const payOrder = (bookingId: string, customerUserId: string, occurrenceId: string) => ({
  checkoutId: randomUUID(),
  bookingId,
  customerUserId,
  occurrenceId,
});
