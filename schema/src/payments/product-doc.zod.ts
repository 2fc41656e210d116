import { z } from 'zod';
import { documentIdSchema } from '../sync/ids.ts';
import { isoTimeSchema } from '../sync/iso-time.ts';
import { schedules } from './billing-calendar.ts';
import { productSchema } from './catalogue.zod.ts';
import { MAX_AMOUNT_MINOR } from './money.ts';
import { productStates, productTypes } from './products.zod.ts';

const amount = z.number().int().min(0).max(MAX_AMOUNT_MINOR);

/**
 * A product as every member's device holds it (collection `products`, decision 0058): the
 * catalogue's product (catalogue.zod.ts) without the processor's id, with its organisation and
 * last change. Bounded as products are written (products.zod.ts), so a push limit exists for it.
 */
export const productDocSchema = productSchema.omit({ stripeProductId: true }).extend({
  id: documentIdSchema,
  orgId: z.uuid(),
  name: z.string().max(120),
  description: z.string().max(2000),
  type: z.enum(productTypes),
  schedule: z.enum(schedules),
  priceMinor: amount,
  startupFeeMinor: amount,
  state: z.enum(productStates),
  variablePricing: z.object({
    enabled: z.boolean(),
    prices: z.array(z.object({ price: amount })).max(20),
  }),
  unifiedBillingConfig: z.object({
    enabled: z.boolean(),
    billingDayOfMonth: z.number().int().min(1).max(28),
  }),
  punchCardConfiguration: z.object({
    groups: z
      .array(
        z.object({
          id: z.uuid(),
          name: z.string().max(80),
          credits: z.number().int().min(1).max(1000),
        }),
      )
      .max(20),
  }),
  updatedAt: isoTimeSchema,
});
export type ProductDoc = z.infer<typeof productDocSchema>;
