/**
 * The PaymentProcessor port (DESIGN.md ports; issue 15): every card and every charge goes
 * through it. Two adapters: the sandbox (the embedded default, its state in our own database)
 * and Stripe (selected by STRIPE_SECRET_KEY).
 *
 * A charge carries an idempotency key: asking again with the same key answers the first
 * outcome and never charges again — the one property the charge service relies on to make a
 * retried or doubled request harmless (decision 0055).
 */
export type CardInput = { number: string; expMonth: number; expYear: number; cvc: string };

export type StoredCard = {
  processorPaymentMethodId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
};

export type ChargeRequest = {
  orgId: string;
  idempotencyKey: string;
  processorPaymentMethodId: string;
  amountMinor: number;
  currency: string;
  description: string;
};

export type ChargeOutcome =
  | { status: 'succeeded'; chargeId: string }
  | { status: 'declined' | 'requires-action'; message: string };

export interface PaymentProcessor {
  readonly kind: 'sandbox' | 'stripe';
  /** The product at the processor (spec §3 stripeProductId). */
  createProduct(input: { orgId: string; productId: string; name: string }): Promise<string>;
  /** Keeps a card for later charges; a card the processor refuses says why. */
  saveCard(input: {
    orgId: string;
    userId: string;
    card: CardInput;
  }): Promise<{ ok: true; card: StoredCard } | { ok: false; message: string }>;
  /** Charges once per idempotency key, whatever happens to the caller in between. */
  charge(request: ChargeRequest): Promise<ChargeOutcome>;
}
