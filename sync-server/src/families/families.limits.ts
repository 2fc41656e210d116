import type { RateRule } from '../rate-limits/rate-limits.ts';

/**
 * validate-child is public and checks email addresses (decision 0020): per address, a call
 * costs one plus one per child row — 100 per 15 minutes is two full family forms.
 */
export const validateChildLimit = {
  name: 'validate-child-address',
  limit: 100,
  perMs: 15 * 60_000,
} satisfies RateRule;
