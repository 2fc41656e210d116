import { addressSubject, type RateRule } from '../rate-limits/rate-limits.ts';

/** Each new product is a call to the processor (Stripe's API with its key): bounded per person. */
export const catalogueLimits = {
  createProduct: {
    name: 'catalogue-create-product',
    limit: 60,
    perMs: 10 * 60_000,
  } satisfies RateRule,
};

/**
 * Card testing (trying stolen numbers one after another) is the abuse a card form draws: a
 * seller adds a handful of cards an hour, not hundreds. Charges are bounded too, well above a
 * busy front desk (a double click or a retry of one invoice is not a second charge anyway).
 */
export const chargeLimits = {
  addCard: { name: 'charge-add-card', limit: 20, perMs: 60 * 60_000 } satisfies RateRule,
  /** The same, per address: fresh signups do not each bring 20 more tries. */
  addCardPerAddress: {
    name: 'charge-add-card-address',
    limit: 40,
    perMs: 60 * 60_000,
  } satisfies RateRule,
  runCharge: { name: 'charge-run', limit: 120, perMs: 10 * 60_000 } satisfies RateRule,
};

/**
 * A new card, on any card form: per person — the one at the keyboard, a guardian switched into a
 * child included, so each child is not 20 more tries — and per address (decision 0020).
 */
export const cardLimits = (
  keyboardUserId: string,
  ip: string,
): Array<{ rule: RateRule; subject: string }> => [
  { rule: chargeLimits.addCard, subject: keyboardUserId },
  { rule: chargeLimits.addCardPerAddress, subject: addressSubject(ip) },
];
