import { z } from 'zod';
import { clampBillingDay, isMonthlyCycle, schedules, type Schedule } from './billing-calendar.ts';
import { MAX_AMOUNT_MINOR } from './money.ts';

/** spec §3 Product.type: recurring or other (we call the other 'one-time'). */
export const productTypes = ['recurring', 'one-time'] as const;
export type ProductType = (typeof productTypes)[number];

/** spec §3 Product.state, requires-consultation among them. */
export const productStates = ['available', 'requires-consultation', 'archived'] as const;
export type ProductState = (typeof productStates)[number];

export const productMessages = {
  nameRequired: 'A product name is required.',
  nameTooLong: 'A product name is at most 120 characters.',
  priceInvalid: 'Enter a price such as 49.00.',
  priceTooHigh: 'A price is at most 1,000,000.00.',
  scheduleMismatch: 'A recurring product needs a schedule; a one-time product is charged once.',
  unifiedBillingNeedsMonths:
    'A billing day of the month needs a monthly, quarterly, half-yearly or yearly schedule.',
  punchCardsOneTimeOnly: 'Punch cards come with one-time products.',
  punchCardGroupTwice: 'Each punch-card group may appear only once.',
  creditsInvalid: 'Credits are a whole number from 1 to 1,000.',
  variablePriceRequired: 'Add at least one price, or turn variable pricing off.',
} as const;

const amount = z
  .number({ error: productMessages.priceInvalid })
  .int(productMessages.priceInvalid)
  .min(0, productMessages.priceInvalid)
  .max(MAX_AMOUNT_MINOR, productMessages.priceTooHigh);

export const punchCardGroupSchema = z.object({
  id: z.uuid(),
  name: z.string().trim().min(1).max(80),
  credits: z
    .number()
    .int(productMessages.creditsInvalid)
    .min(1, productMessages.creditsInvalid)
    .max(1000, productMessages.creditsInvalid),
});

/** What staff fill in for a product (spec §3 Product), amounts in minor units. */
export const productInputSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, productMessages.nameRequired)
      .max(120, productMessages.nameTooLong),
    description: z.string().trim().max(2000).default(''),
    type: z.enum(productTypes),
    schedule: z.enum(schedules),
    priceMinor: amount,
    startupFeeMinor: amount.default(0),
    // Archiving has its own action; a product is offered as available or on consultation.
    state: z.enum(['available', 'requires-consultation']).default('available'),
    variablePricing: z
      .object({ enabled: z.boolean(), prices: z.array(z.object({ price: amount })).max(20) })
      .default({ enabled: false, prices: [] }),
    unifiedBillingConfig: z
      .object({
        enabled: z.boolean(),
        // spec §9: clamped to 1–28, default 1.
        billingDayOfMonth: z.number().int().transform(clampBillingDay).default(1),
      })
      .default({ enabled: false, billingDayOfMonth: 1 }),
    punchCardConfiguration: z
      .object({ groups: z.array(punchCardGroupSchema).max(20) })
      .default({ groups: [] }),
  })
  .superRefine((product, ctx) => {
    if ((product.type === 'recurring') === (product.schedule === 'one-time')) {
      ctx.addIssue({
        code: 'custom',
        path: ['schedule'],
        message: productMessages.scheduleMismatch,
      });
    }
    if (product.unifiedBillingConfig.enabled && !isMonthlyCycle(product.schedule)) {
      ctx.addIssue({
        code: 'custom',
        path: ['unifiedBillingConfig', 'enabled'],
        message: productMessages.unifiedBillingNeedsMonths,
      });
    }
    if (product.type === 'recurring' && product.punchCardConfiguration.groups.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['punchCardConfiguration', 'groups'],
        message: productMessages.punchCardsOneTimeOnly,
      });
    }
    // A group is one balance: the same id twice would give its credits twice.
    const groupIds = product.punchCardConfiguration.groups.map((group) => group.id);
    if (new Set(groupIds).size !== groupIds.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['punchCardConfiguration', 'groups'],
        message: productMessages.punchCardGroupTwice,
      });
    }
    if (product.variablePricing.enabled && product.variablePricing.prices.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['variablePricing', 'prices'],
        message: productMessages.variablePriceRequired,
      });
    }
  });
export type ProductInput = z.output<typeof productInputSchema>;

/** A product as stored and replicated: the input plus who owns it and the processor's id. */
export type Product = ProductInput & {
  id: string;
  orgId: string;
  stripeProductId: string | null;
};

/** spec §3 Coupon. */
export const couponTypes = ['percentage', 'fixed', 'none'] as const;
export type CouponType = (typeof couponTypes)[number];
export const couponDurations = ['forever', 'once', 'repeating'] as const;
export type CouponDuration = (typeof couponDurations)[number];

/** The most redemptions a coupon may allow (its column is a 32-bit integer). */
export const MAX_REDEMPTIONS = 1_000_000;

export const couponMessages = {
  nameRequired: 'A coupon name is required.',
  percentInvalid: 'A percentage is a whole number from 1 to 100.',
  fixedInvalid: 'Enter an amount above 0, such as 5.00.',
  monthsRequired: 'Say for how many months (1 to 36).',
  redemptionsInvalid: 'Redemptions are a whole number from 1 to 1,000,000, or empty for no limit.',
} as const;

/** The terms the totaling reads (the rest of a coupon is bookkeeping). */
export type CouponTerms = {
  type: CouponType;
  /** Percent (1–100) for 'percentage', minor units for 'fixed', 0 for 'none'. */
  amount: number;
  appliesToProductIds: string[];
  duration: { durationType: CouponDuration; durationInMonths: number | null };
};

export const couponInputSchema = z
  .object({
    name: z.string().trim().min(1, couponMessages.nameRequired).max(80),
    type: z.enum(couponTypes),
    amount: z.number().int().min(0).max(MAX_AMOUNT_MINOR),
    numberOfRedemptions: z
      .number()
      .int(couponMessages.redemptionsInvalid)
      .min(1, couponMessages.redemptionsInvalid)
      .max(MAX_REDEMPTIONS, couponMessages.redemptionsInvalid)
      .nullable(),
    appliesToProductIds: z.array(z.uuid()).max(200).default([]),
    duration: z.object({
      durationType: z.enum(couponDurations),
      durationInMonths: z.number().int().min(1).max(36).nullable().default(null),
    }),
  })
  .superRefine((coupon, ctx) => {
    if (coupon.type === 'percentage' && (coupon.amount < 1 || coupon.amount > 100)) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: couponMessages.percentInvalid });
    }
    if (coupon.type === 'fixed' && (coupon.amount < 1 || coupon.amount > MAX_AMOUNT_MINOR)) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: couponMessages.fixedInvalid });
    }
    if (coupon.duration.durationType === 'repeating' && coupon.duration.durationInMonths === null) {
      ctx.addIssue({
        code: 'custom',
        path: ['duration', 'durationInMonths'],
        message: couponMessages.monthsRequired,
      });
    }
  });
export type CouponInput = z.output<typeof couponInputSchema>;

/**
 * spec §9 "New discount default: percentage 10, one redemption, forever for recurring
 * products" — and once for a one-time product, which is charged once anyway.
 */
export function newDiscountDefaults(product: { type: ProductType } | null): CouponInput {
  return {
    name: '',
    type: 'percentage',
    amount: 10,
    numberOfRedemptions: 1,
    appliesToProductIds: [],
    duration: {
      durationType: product?.type === 'one-time' ? 'once' : 'forever',
      durationInMonths: null,
    },
  };
}

export type { Schedule };
