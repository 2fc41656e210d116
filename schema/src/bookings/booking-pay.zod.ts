import { z } from 'zod';
import {
  atMostOneNewCard,
  newCardFields,
  newCardMessages,
  paymentMethodSchema,
} from '../payments/charge.zod.ts';
import { processorKindSchema } from '../payments/processor.zod.ts';
import { documentIdSchema } from '../sync/ids.ts';
import { isoTimeSchema } from '../sync/iso-time.ts';

/**
 * Pay at booking (issue 16, decision 0070): a class or appointment with a price that nothing the
 * person holds pays for is paid by card first — online, like the Shop — and the device then
 * writes the booking request as any other, which the server decides using the payment once. A
 * payment no booking kept (refused, full, never sent) or a place given up in time is refunded.
 */
export const bookingPayRequestSchema = z
  .object({
    orgId: z.uuid(),
    /** Named by the pay dialog when it opens: paying again (double click, retry) is this one. */
    checkoutId: z.uuid(),
    /** The booking the device writes once paid (its id, named before paying). */
    bookingId: documentIdSchema,
    /** Whose place: the payer, or a child of theirs. */
    customerUserId: z.uuid(),
    /** The class time; for an appointment, the id the device names for it. */
    occurrenceId: documentIdSchema,
    appointment: z
      .object({ typeId: z.uuid(), staffUserId: z.uuid(), startsAt: isoTimeSchema })
      .nullable()
      .default(null),
    paymentMethodId: z.uuid().nullable().default(null),
    ...newCardFields,
  })
  .refine(atMostOneNewCard, newCardMessages.oneCard);
export type BookingPayRequest = z.input<typeof bookingPayRequestSchema>;
export type BookingPayBody = z.output<typeof bookingPayRequestSchema>;

export const bookingPayResponseSchema = z.discriminatedUnion('paid', [
  z.object({ paid: z.literal(true), amountMinor: z.number().int(), currency: z.string() }),
  z.object({ paid: z.literal(false), message: z.string() }),
]);
export type BookingPayResponse = z.infer<typeof bookingPayResponseSchema>;

/** POST /api/bookings/pay/options: the payer's cards and which processor takes a new one. */
export const bookingPayOptionsRequestSchema = z.object({ orgId: z.uuid() });
export const bookingPayOptionsSchema = z.object({
  paymentMethods: z.array(paymentMethodSchema),
  processor: processorKindSchema,
});
export type BookingPayOptions = z.infer<typeof bookingPayOptionsSchema>;

export const bookingPayMessages = {
  nothingToPay: 'Nothing to pay: something you hold already pays for this booking, or it is free.',
  alreadyPaid: 'This place is already paid for, or a payment for it is under way.',
  inProgress: 'This payment is already being processed.',
  notFamily: 'You can pay for your own bookings and your children’s.',
  changed: 'This booking changed since you opened it. Close this window and book again.',
  /** A paid request that reached the server after its payment was returned (a day later). */
  paymentReturned:
    'The payment for this booking was returned because the booking did not reach the organization within a day. Book again.',
} as const;

/** What a payment at booking went through, as its payer's devices see it (once charged). */
const bookingPaymentStatuses = [
  'paid',
  'used',
  'refund-due',
  'refunded',
  'refund-refused',
] as const;

/**
 * A payment made at booking, replicated read-only to the payer's family (collection
 * `booking-payments`): the receipt in Purchase history, and whether the money went back.
 */
export const bookingPaymentDocSchema = z.object({
  id: documentIdSchema,
  orgId: z.uuid(),
  payerUserId: z.uuid(),
  customerUserId: z.uuid(),
  bookingId: documentIdSchema,
  /** The class or appointment and its time, as the receipt says. */
  description: z.string().max(400),
  amountMinor: z.number().int().min(0),
  currency: z.string().min(3).max(3),
  status: z.enum(bookingPaymentStatuses),
  paidAt: isoTimeSchema.nullable(),
  refundedAt: isoTimeSchema.nullable(),
  updatedAt: isoTimeSchema,
});
export type BookingPaymentDoc = z.infer<typeof bookingPaymentDocSchema>;

/** A payment no booking took is returned after this long (the sweep; decision 0070). */
export const UNUSED_BOOKING_PAYMENT_MS = 24 * 60 * 60_000;
