import { z } from 'zod';

/**
 * Refunds to settle (issue 16): payments taken at booking that were owed back, and that the
 * processor would not refund (`refund-refused`, with its reason). Staff who sell
 * (manage-point-of-sale) ask the processor again, or mark the refund made outside the platform.
 */
export const refundToSettleSchema = z.object({
  id: z.uuid(),
  payerName: z.string(),
  /** The person the booking was for (a child, when a guardian paid). */
  customerName: z.string(),
  description: z.string(),
  amountMinor: z.number().int(),
  currency: z.string(),
  /** The processor's reason, as it gave it. */
  failureMessage: z.string().nullable(),
  paidAt: z.string().nullable(),
  /** When the refund was refused (the payment's last change). */
  refusedAt: z.string(),
});
export type RefundToSettle = z.infer<typeof refundToSettleSchema>;

export const refundsToSettleSchema = z.object({ refunds: z.array(refundToSettleSchema) });
export type RefundsToSettle = z.infer<typeof refundsToSettleSchema>;

export const refundIdParamsSchema = z.object({ id: z.uuid() });

export const refundSettledSchema = z.object({ message: z.string() });

export const refundsToSettleTexts = {
  heading: 'Refunds to settle',
  intro:
    'Payments taken at booking that were owed back and that the card processor would not refund. Ask it again, or, once you have paid the money back another way, mark the refund as made.',
  empty: 'Nothing to settle: every refund owed has been made.',
  loading: 'Loading refunds to settle…',
  retry: 'Ask the processor again',
  markRefunded: 'Mark as refunded outside the platform',
  retried: 'Asked again: the refund is being made. It leaves this list once the processor agrees.',
  markedRefunded: 'Marked as refunded outside the platform.',
  notFound: 'There is no such refund to settle.',
  notWaiting: 'This refund is no longer waiting to be settled.',
  notAllowed: 'You cannot settle this organisation’s refunds.',
} as const;
