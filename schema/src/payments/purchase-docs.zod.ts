import { z } from 'zod';
import { documentIdSchema } from '../sync/ids.ts';
import { isoTimeSchema } from '../sync/iso-time.ts';
import { MAX_AMOUNT_MINOR } from './money.ts';

// What Purchase history shows, replicated read-only to the buyer's family and to staff who sell
// (decision 0058). Two collections, not one with invoices embedded: a subscription gains an
// invoice at every renewal, and a replicated document must have a largest size (push-limits).

export const subscriptionStatuses = [
  'scheduled',
  'active',
  // The processor's renewal charge failed and it is retrying (decision 0057).
  'past-due',
  'cancel-at-period-end',
  'cancelled',
] as const;

const amount = z.number().int().min(0).max(MAX_AMOUNT_MINOR);
// A description names the product and, at most, a day ('… — billing starts Dec 1, 2026').
const text = (max: number) => z.string().max(max);

/**
 * The card a subscription renews with (issue 15 "the card on file"): what identifies it to its
 * owner, never its number — a card number never reaches a device from the server.
 */
export const cardOnFileSchema = z.object({
  brand: text(40),
  last4: z
    .string()
    .length(4)
    .regex(/^\d{4}$/),
  expMonth: z.number().int().min(1).max(12),
  expYear: z.number().int().min(2000).max(2100),
});
export type CardOnFile = z.infer<typeof cardOnFileSchema>;

/** A subscription (one `subscriptions` row) as its buyer's device holds it. */
export const purchaseDocSchema = z.object({
  id: documentIdSchema,
  orgId: z.uuid(),
  customerUserId: z.uuid(),
  productId: z.uuid(),
  /** The product's name when it was bought. */
  productName: text(120),
  priceMinor: amount,
  status: z.enum(subscriptionStatuses),
  startedOn: z.iso.date(),
  nextBillingDate: z.iso.date().nullable(),
  cancelledAt: isoTimeSchema.nullable(),
  /** The card its renewals are charged to; null when paid outside the platform or unknown. */
  card: cardOnFileSchema.nullable(),
  /** Paid outside the platform (nothing here charges it; spec §3 external payment). */
  externalPayments: z.boolean(),
  /** Its agreed last day, when it was agreed to end (decision 0073). */
  endsOn: z.iso.date().nullable(),
  updatedAt: isoTimeSchema,
});
export type PurchaseDoc = z.infer<typeof purchaseDocSchema>;

/** A line of a paid invoice (spec §3 line items), as charge.zod.ts's, bounded. */
export const invoiceLineDocSchema = z.object({
  type: z.enum(['startup_fee', 'subscription']),
  description: text(300),
  originalAmount: amount,
  finalAmount: amount,
  discountAmount: amount,
  discountPercent: z.number().min(0).max(100).nullable(),
  isProrated: z.boolean(),
  prorationDescription: text(300).nullable(),
});

/**
 * A paid invoice (one `invoices` row) as its buyer's device holds it: of a subscription
 * (`subscriptionId`) or of a one-time product (null). Invoices not paid replicate as tombstones.
 */
export const invoiceDocSchema = z.object({
  id: documentIdSchema,
  orgId: z.uuid(),
  customerUserId: z.uuid(),
  subscriptionId: z.uuid().nullable(),
  productId: z.uuid(),
  productName: text(120),
  totalMinor: amount,
  currency: text(3),
  paidAt: isoTimeSchema.nullable(),
  lineItems: z.array(invoiceLineDocSchema).max(4),
  updatedAt: isoTimeSchema,
});
export type InvoiceDoc = z.infer<typeof invoiceDocSchema>;
