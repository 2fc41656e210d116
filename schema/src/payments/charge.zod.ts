import { z } from 'zod';
import { isDayKey } from '../time-tracking/org-calendar.ts';
import { couponSchema, productSchema } from './catalogue.zod.ts';
import { DEFAULT_PRORATION_MODE, prorationModes } from './charge-flow.rules.ts';
import { MAX_AMOUNT_MINOR } from './money.ts';
import { processorKindSchema } from './processor.zod.ts';

/**
 * The charge flow's calls (spec §2 'Charge product or subscription', §3 Charge flow state,
 * Totaled invoice, Charge result; issue 15). Amounts are integer minor units.
 */

export const cardMessages = {
  number: 'Enter the card number.',
  expiry: 'Enter the expiry date as MM/YY.',
  cvc: 'Enter the 3 or 4 digit security code.',
} as const;

/** A card typed into the sandbox's own card form (with Stripe, Elements keeps the number). */
export const cardInputSchema = z.object({
  number: z
    .string()
    .transform((text) => text.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(/^\d{12,19}$/, cardMessages.number)),
  expMonth: z.number().int().min(1, cardMessages.expiry).max(12, cardMessages.expiry),
  expYear: z.number().int().min(2000, cardMessages.expiry).max(2100, cardMessages.expiry),
  cvc: z.string().regex(/^\d{3,4}$/, cardMessages.cvc),
});
export type CardFormInput = z.input<typeof cardInputSchema>;

/**
 * A card entered with Stripe: the PaymentMethod Stripe Elements made in the browser, on the
 * card-entry page (decision 0063) — its id, never a number.
 */
export const processorPaymentMethodIdSchema = z
  .string()
  .regex(/^pm_\w{1,200}$/, 'Not a payment method.');

/** A new card in a money route's body: typed (the sandbox) or Stripe's — never both. */
export const newCardFields = {
  card: cardInputSchema.nullable().default(null),
  processorPaymentMethodId: processorPaymentMethodIdSchema.nullable().default(null),
};
export const newCardMessages = {
  oneCard: 'Send a card or a payment method, not both.',
} as const;
export const atMostOneNewCard = (body: {
  card: unknown;
  processorPaymentMethodId: string | null;
}) => body.card === null || body.processorPaymentMethodId === null;

/** What a card form hands its screen: the typed card, or Stripe's PaymentMethod. */
export type NewCard =
  { card: z.output<typeof cardInputSchema> } | { processorPaymentMethodId: string };

/**
 * POST /api/charges/customers/:rosterId/payment-methods: the sandbox's typed card, or the
 * PaymentMethod Stripe Elements made — exactly one (strict: both at once is refused).
 */
export const addPaymentMethodRequestSchema = z.union([
  z.strictObject(cardInputSchema.shape),
  z.strictObject({ processorPaymentMethodId: processorPaymentMethodIdSchema }),
]);
export type AddPaymentMethodRequest = z.input<typeof addPaymentMethodRequestSchema>;

/** "MM/YY" (or "MM / YYYY") → month and four-digit year; null when it is not a date. */
export function parseCardExpiry(text: string): { expMonth: number; expYear: number } | null {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(text);
  if (!match) return null;
  const expMonth = Number(match[1]);
  const year = Number(match[2]);
  if (expMonth < 1 || expMonth > 12) return null;
  return { expMonth, expYear: year < 100 ? 2000 + year : year };
}

export type CardFormText = { number: string; expiry: string; cvc: string };
export type CardFormErrors = Partial<Record<keyof CardFormText, string>>;

/**
 * What a card form's three boxes say, read once for every card form (desk, Shop, invitation):
 * the card, or each box's reason.
 */
export function readCardForm(
  text: CardFormText,
): { ok: true; card: z.output<typeof cardInputSchema> } | { ok: false; errors: CardFormErrors } {
  const date = parseCardExpiry(text.expiry);
  const parsed = cardInputSchema.safeParse({
    number: text.number,
    expMonth: date?.expMonth ?? 0,
    expYear: date?.expYear ?? 0,
    cvc: text.cvc.trim(),
  });
  if (parsed.success && date) return { ok: true, card: parsed.data };
  const errors: CardFormErrors = {};
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const field =
      issue.path[0] === 'number' ? 'number' : issue.path[0] === 'cvc' ? 'cvc' : 'expiry';
    errors[field] ??= issue.message;
  }
  if (!date) errors.expiry = cardMessages.expiry;
  return { ok: false, errors };
}

export const paymentMethodSchema = z.object({
  id: z.uuid(),
  brand: z.string(),
  last4: z.string(),
  expMonth: z.number().int(),
  expYear: z.number().int(),
});
export type PaymentMethodView = z.infer<typeof paymentMethodSchema>;

const minor = z.number().int();

export const lineItemSchema = z.object({
  type: z.enum(['startup_fee', 'subscription']),
  description: z.string(),
  stripeProductId: z.string().nullable(),
  originalAmount: minor,
  finalAmount: minor,
  discountAmount: minor,
  discountPercent: z.number().nullable(),
  isProrated: z.boolean(),
  prorationDescription: z.string().nullable(),
});

export const totaledInvoiceSchema = z.object({
  total: minor,
  subtotal: minor,
  couponDiscount: minor,
  recurringFinalAmount: minor,
  nextBillingDate: z.string().nullable(),
  isProrated: z.boolean(),
  prorationDescription: z.string().nullable(),
  lineItems: z.array(lineItemSchema),
});

export const rosterIdParamsSchema = z.object({ rosterId: z.uuid() });

/** GET /api/charges/customers/:rosterId — what the modal offers for this customer. */
export const chargeContextSchema = z.object({
  customer: z.object({
    rosterId: z.uuid(),
    userId: z.uuid(),
    name: z.string(),
    email: z.string().nullable(),
  }),
  paymentMethods: z.array(paymentMethodSchema),
  products: z.array(productSchema),
  coupons: z.array(couponSchema),
  processor: processorKindSchema,
  currency: z.string(),
  /** The organisation's today (YYYY-MM-DD): the start-date window counts from it. */
  today: z.string(),
});
export type ChargeContext = z.infer<typeof chargeContextSchema>;

const dayOrNull = z
  .string()
  .nullable()
  .transform((day) => (day === '' ? null : day))
  .refine((day) => day === null || isDayKey(day), 'Invalid date format');

/** spec §4 Continue: totals the invoice (spec §3 Charge calls, the processor's ids are ours). */
export const totalChargeRequestSchema = z.object({
  rosterId: z.uuid(),
  productId: z.uuid(),
  paymentMethodId: z.uuid().nullable(),
  couponId: z.uuid().nullable().default(null),
  startDate: dayOrNull.default(null),
  priceMinor: z.number().int().min(0).max(MAX_AMOUNT_MINOR).nullable().default(null),
  prorationMode: z.enum(prorationModes).default(DEFAULT_PRORATION_MODE),
  issuePunchCard: z.boolean().default(false),
});
export type TotalChargeRequest = z.input<typeof totalChargeRequestSchema>;

export const totalChargeResponseSchema = z.object({
  invoiceId: z.uuid(),
  totals: totaledInvoiceSchema,
});
export type TotalChargeResponse = z.infer<typeof totalChargeResponseSchema>;

/** spec §4 Run charge: the same invoice, charged once however often this is sent. */
export const runChargeRequestSchema = z.object({ invoiceId: z.uuid() });

/** spec §3 Charge result: `valid`, with the reason when it is not. */
export const runChargeResponseSchema = z.discriminatedUnion('valid', [
  z.object({
    valid: z.literal(true),
    invoiceId: z.uuid(),
    totals: totaledInvoiceSchema,
    subscriptionId: z.uuid().nullable(),
    recurring: z.boolean(),
  }),
  z.object({
    valid: z.literal(false),
    invoiceId: z.uuid(),
    message: z.string(),
    inProgress: z.boolean().optional(),
    totals: totaledInvoiceSchema.optional(),
  }),
]);
export type RunChargeResponse = z.infer<typeof runChargeResponseSchema>;

/** GET /api/charges/today — the point of sale's list of today's sales (the organisation's day). */
export const todaysSalesSchema = z.object({
  day: z.string(),
  currency: z.string(),
  totalMinor: minor,
  sales: z.array(
    z.object({
      invoiceId: z.uuid(),
      rosterId: z.uuid().nullable(),
      customerName: z.string(),
      productName: z.string(),
      totalMinor: minor,
      paidAt: z.string(),
      subscription: z.boolean(),
    }),
  ),
});
export type TodaysSales = z.infer<typeof todaysSalesSchema>;
