import { z } from 'zod';
import { schedules } from './billing-calendar.ts';
import { couponDurations, couponTypes, productStates, productTypes } from './products.zod.ts';
import { processorKindSchema } from './processor.zod.ts';

/** A product as the catalogue answers it (spec §3 Product; amounts in minor units). */
export const productSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  type: z.enum(productTypes),
  schedule: z.enum(schedules),
  priceMinor: z.number().int(),
  startupFeeMinor: z.number().int(),
  state: z.enum(productStates),
  variablePricing: z.object({
    enabled: z.boolean(),
    prices: z.array(z.object({ price: z.number().int() })),
  }),
  unifiedBillingConfig: z.object({ enabled: z.boolean(), billingDayOfMonth: z.number().int() }),
  punchCardConfiguration: z.object({
    groups: z.array(z.object({ id: z.uuid(), name: z.string(), credits: z.number().int() })),
  }),
  /** spec §3 stripeProductId: the processor's product (the sandbox's in the demo). */
  stripeProductId: z.string().nullable(),
});
export type CatalogueProduct = z.infer<typeof productSchema>;

export const couponSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  type: z.enum(couponTypes),
  amount: z.number().int(),
  numberOfRedemptions: z.number().int().nullable(),
  timesRedeemed: z.number().int(),
  appliesToProductIds: z.array(z.uuid()),
  duration: z.object({
    durationType: z.enum(couponDurations),
    durationInMonths: z.number().int().nullable(),
  }),
});
export type CatalogueCoupon = z.infer<typeof couponSchema>;

export const catalogueResponseSchema = z.object({
  products: z.array(productSchema),
  coupons: z.array(couponSchema),
  /** Which processor charges for this organisation: the sandbox is labelled so on screen. */
  processor: processorKindSchema,
  currency: z.string(),
});
export type CatalogueResponse = z.infer<typeof catalogueResponseSchema>;

export const productIdParamsSchema = z.object({ productId: z.uuid() });
export const couponIdParamsSchema = z.object({ couponId: z.uuid() });
