import { z } from 'zod';
import {
  atMostOneNewCard,
  cardInputSchema,
  newCardFields,
  newCardMessages,
  paymentMethodSchema,
  processorPaymentMethodIdSchema,
  totaledInvoiceSchema,
} from './charge.zod.ts';
import { cardOnFileSchema } from './purchase-docs.zod.ts';
import { MAX_AMOUNT_MINOR } from './money.ts';
import { processorKindSchema } from './processor.zod.ts';

/**
 * The customer's side of buying (spec §2 Shop, Purchase history; issue 15): a quote before
 * paying, the purchase itself (named once by the checkout, so a repeated Pay is the same order),
 * and cancelling a subscription at the end of its paid period.
 */

export const shopMessages = {
  consultation: 'The price of this product is agreed with you: ask us about it.',
  priceNotOffered: 'Choose one of the prices offered for this product.',
  couponUnknown: 'This coupon code is not valid.',
  couponNotForProduct: 'This coupon code does not apply to this product.',
  notThisApp: 'Open this organisation’s app to buy from it.',
  guardianBuys: 'A parent or guardian buys for this account: switch to it from theirs.',
  cancelled: (day: string) => `Your subscription ends on ${day}. Nothing more is charged.`,
  notCancellable: 'This subscription cannot be cancelled any more.',
  orderChanged: 'This order has changed since the checkout opened. Close it and buy again.',
  cardReplaced: (card: string) =>
    `${card} is now your card on file: your subscriptions renew with it.`,
  cardSaved: (card: string) =>
    `${card} is saved. You have no subscription that renews: it is offered when you buy.`,
  cardRetry: 'The next attempt to collect the missed payment uses it.',
} as const;

const quoteFields = {
  orgId: z.uuid(),
  productId: z.uuid(),
  /** The coupon's name as the customer types it; empty for none. */
  couponCode: z
    .string()
    .trim()
    .max(80)
    .nullable()
    .default(null)
    .transform((code) => (code ? code : null)),
  /** One of the product's variable prices, when it has them. */
  priceMinor: z.number().int().min(0).max(MAX_AMOUNT_MINOR).nullable().default(null),
};

export const shopQuoteRequestSchema = z.object(quoteFields);
export type ShopQuoteRequest = z.input<typeof shopQuoteRequestSchema>;

export const shopQuoteSchema = z.object({
  totals: totaledInvoiceSchema,
  couponName: z.string().nullable(),
  paymentMethods: z.array(paymentMethodSchema),
  processor: processorKindSchema,
  currency: z.string(),
});
export type ShopQuote = z.infer<typeof shopQuoteSchema>;

export const shopBuyRequestSchema = z
  .object({
    ...quoteFields,
    /** Made by the checkout when it opens: paying again (double click, retry) is this order. */
    checkoutId: z.uuid(),
    paymentMethodId: z.uuid().nullable().default(null),
    /** A new card: the sandbox's typed one, or Stripe's PaymentMethod (decision 0063). */
    ...newCardFields,
  })
  .refine(atMostOneNewCard, newCardMessages.oneCard);
export type ShopBuyRequest = z.input<typeof shopBuyRequestSchema>;

export const shopBuyResponseSchema = z.discriminatedUnion('valid', [
  z.object({
    valid: z.literal(true),
    recurring: z.boolean(),
    subscriptionId: z.uuid().nullable(),
    totals: totaledInvoiceSchema,
  }),
  z.object({ valid: z.literal(false), message: z.string() }),
]);
export type ShopBuyResponse = z.infer<typeof shopBuyResponseSchema>;

export const cancelSubscriptionParamsSchema = z.object({ subscriptionId: z.uuid() });
export const cancelSubscriptionRequestSchema = z.object({ orgId: z.uuid() });
export const cancelSubscriptionResponseSchema = z.object({
  status: z.string(),
  endsOn: z.string().nullable(),
  message: z.string(),
});

/**
 * POST /api/shop/payment-method: the buyer's new card on file (issue 15 "the card on file
 * (replace it)"): typed into the sandbox's card form, or — with Stripe — the PaymentMethod
 * Stripe Elements made in the browser. A card the processor refuses is the answer
 * (`valid: false` with its message, as a declined payment is), and the card on file stays.
 */
export const replaceCardRequestSchema = z.union([
  z.strictObject({ orgId: z.uuid(), card: cardInputSchema }),
  z.strictObject({ orgId: z.uuid(), processorPaymentMethodId: processorPaymentMethodIdSchema }),
]);
export type ReplaceCardRequest = z.input<typeof replaceCardRequestSchema>;

export const replaceCardResponseSchema = z.discriminatedUnion('valid', [
  z.object({
    valid: z.literal(true),
    card: cardOnFileSchema,
    /** How many subscriptions renew with it now. */
    subscriptions: z.number().int().min(0),
    message: z.string(),
  }),
  z.object({ valid: z.literal(false), message: z.string() }),
]);
export type ReplaceCardResponse = z.infer<typeof replaceCardResponseSchema>;
