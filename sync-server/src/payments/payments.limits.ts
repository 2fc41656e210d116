import type { RateRule } from '../rate-limits/rate-limits.ts';

/** Each new product is a call to the processor (Stripe's API with its key): bounded per person. */
export const catalogueLimits = {
  createProduct: {
    name: 'catalogue-create-product',
    limit: 60,
    perMs: 10 * 60_000,
  } satisfies RateRule,
};
