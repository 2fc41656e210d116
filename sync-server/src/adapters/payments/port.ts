import type { RecurringSchedule } from '@platform/schema/payments/billing-calendar';
import type { ProcessorKind } from '@platform/schema/payments/processor.zod';
import type { RenewalDiscountPlan } from '@platform/schema/payments/renewal-totaling';
import type { DayKey } from '@platform/schema/time-tracking/org-calendar';

/**
 * The PaymentProcessor port (DESIGN.md ports; issue 15): every card and every charge goes
 * through it. Two adapters: the sandbox (the embedded default, its state in our own database)
 * and Stripe (selected by STRIPE_SECRET_KEY; decision 0057) — and a third that takes nothing,
 * for a deployment with PAYMENT_PROCESSOR=none (none.ts, decision 0061).
 *
 * A charge carries an idempotency key: asking again with the same key answers the first
 * outcome and never charges again — the one property the charge service relies on to make a
 * retried or doubled request harmless (decision 0055).
 */
export type CardInput = { number: string; expMonth: number; expYear: number; cvc: string };

/**
 * A card to keep: the number typed into the sandbox's own card form, or — with Stripe — the
 * PaymentMethod that Stripe Elements created in the browser, so the server never sees a card
 * number. Each adapter takes only its own kind and says so of the other.
 */
export type CardToSave =
  | ({ kind: 'card-number' } & CardInput)
  | { kind: 'processor-payment-method'; processorPaymentMethodId: string };

export type StoredCard = {
  processorPaymentMethodId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
};

export type ChargeRequest = {
  orgId: string;
  /** Whose card: the processor charges it as this person's (a Stripe Customer). */
  userId: string;
  idempotencyKey: string;
  processorPaymentMethodId: string;
  amountMinor: number;
  currency: string;
  description: string;
};

export type ChargeOutcome =
  | { status: 'succeeded'; chargeId: string }
  | { status: 'declined' | 'requires-action'; message: string };

/**
 * Money given back on a charge that succeeded (a place paid for at booking and then refused,
 * or cancelled in time). Once per idempotency key, like a charge: asking again answers the
 * first outcome and never refunds twice. `amountMinor` is at most what the charge took.
 */
export type RefundRequest = {
  orgId: string;
  /** The charge's id as `charge` answered it. */
  chargeId: string;
  amountMinor: number;
  idempotencyKey: string;
};

/**
 * `refused`: the processor will not give this back (already refunded, a charge it does not
 * know or that did not succeed) — an answer, not an outage; anything else throws, so the
 * refund job asks again with the same key.
 */
export type RefundOutcome =
  { status: 'refunded'; refundId: string } | { status: 'refused'; message: string };

/**
 * Our coupon on a subscription's renewals, and which of them it discounts by our rules
 * (decision 0060): the processor is told the undiscounted price and this discount.
 */
export type RenewalDiscount = {
  couponId: string;
  name: string;
  type: 'percentage' | 'fixed';
  /** Percent (1–100) or minor units. */
  amount: number;
  plan: RenewalDiscountPlan;
};

/**
 * The processor bills the renewals after our own first charge (decision 0057): its first
 * period starts on `firstBillingDate` (the totaled invoice's nextBillingDate, a day of the
 * organisation's calendar in `timeZone`), nothing charged before it.
 */
export type SubscriptionRequest = {
  orgId: string;
  userId: string;
  processorProductId: string;
  /** What each renewal costs before any coupon: the price agreed for the subscription. */
  priceMinor: number;
  /** The coupon on the renewals, or null when it discounts none of them. */
  discount: RenewalDiscount | null;
  /** When our first charge was made: a processor counts a coupon's months from about then. */
  subscribedAt: Date;
  currency: string;
  schedule: RecurringSchedule;
  firstBillingDate: DayKey;
  timeZone: string;
  processorPaymentMethodId: string;
  /**
   * Our subscription's id: the processor's subscription names it, so a request asked again with
   * other details (a card replaced after an answer was lost) still finds the one first made.
   */
  subscriptionId: string;
  idempotencyKey: string;
};

export interface PaymentProcessor {
  readonly kind: ProcessorKind;
  /** The product at the processor (spec §3 stripeProductId). */
  createProduct(input: { orgId: string; productId: string; name: string }): Promise<string>;
  /** Keeps a card for later charges; a card the processor refuses says why. */
  saveCard(input: {
    orgId: string;
    userId: string;
    card: CardToSave;
    /**
     * Ask the card's bank now whether it may be charged later (a card on file, which nobody is
     * present for when it is charged): a card the bank declines is refused here. Stripe checks
     * every card it attaches; the sandbox only when asked, so a declined test card can still be
     * kept to show a declined charge.
     */
    verify?: boolean;
  }): Promise<{ ok: true; card: StoredCard } | { ok: false; message: string }>;
  /** Charges once per idempotency key, whatever happens to the caller in between. */
  charge(request: ChargeRequest): Promise<ChargeOutcome>;
  /** Gives back money a charge took; once per idempotency key. */
  refund(request: RefundRequest): Promise<RefundOutcome>;
  /** Starts the processor's subscription for the renewals; once per idempotency key. */
  startSubscription(request: SubscriptionRequest): Promise<{
    processorSubscriptionId: string;
    /** The card it charges, when the processor says (one found, not made, may have another). */
    processorPaymentMethodId?: string;
  }>;
  /**
   * The processor's subscription renews with this card from now on — a failed renewal's next
   * retry included (decision 0064). Asking twice is harmless.
   */
  useCardForSubscription(input: {
    orgId: string;
    userId: string;
    processorSubscriptionId: string;
    processorPaymentMethodId: string;
  }): Promise<void>;
  /** The subscription ends when its paid period does; nothing more is charged. */
  cancelSubscriptionAtPeriodEnd(input: {
    orgId: string;
    processorSubscriptionId: string;
  }): Promise<void>;
}
