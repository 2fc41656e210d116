import Stripe from 'stripe';
import type { RecurringSchedule } from '@platform/schema/payments/billing-calendar';
import type { Db } from '../../db/open-database.ts';
import { ServiceUnavailable } from '../../plugins/domain-errors.ts';
import { cardMessages } from './card-messages.ts';
import type { ChargeOutcome, PaymentProcessor, StoredCard } from './port.ts';
import { noonOn, stripeCouponFor } from './stripe-coupons.ts';
import { findProcessorCustomer, keepProcessorCustomer } from './processor-customers.repository.ts';

export const stripeMessages = {
  numberRefused:
    'Card numbers are not taken here: the card is entered in Stripe’s own form, which sends us only a reference to it.',
  notACard: 'Only cards can be saved.',
  cardNotSaved: 'This card could not be saved. Enter it again.',
  incorrectCvc: 'Your card’s security code is incorrect.',
  processingError: 'The card could not be processed. Try again in a moment.',
  requiresAuthentication:
    'Your bank asks to confirm this payment. Confirm it in your banking app, or use another card.',
  refundRefused: 'This payment cannot be refunded: it was already refunded, or never taken.',
} as const;

/** Stripe's codes for a refund it will not make (not an outage: asking again changes nothing). */
const refusedRefundCodes = new Set([
  'charge_already_refunded',
  'charge_disputed',
  'payment_intent_unexpected_state',
  'resource_missing',
  'amount_too_large',
]);

export type StripeSettings = {
  secretKey: string;
  /** Another endpoint than Stripe's own (a local server that speaks its wire format). */
  apiBase?: string | undefined;
  /**
   * The SDK's own retries of a request that got no answer, with the same idempotency key (so
   * harmless); the SDK's default (2) unless given.
   */
  maxNetworkRetries?: number;
};

export function createStripeClient(settings: StripeSettings): Stripe {
  const base = settings.apiBase ? new URL(settings.apiBase) : null;
  return new Stripe(settings.secretKey, {
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
    ...(settings.maxNetworkRetries === undefined
      ? {}
      : { maxNetworkRetries: settings.maxNetworkRetries }),
    telemetry: false,
  });
}

/** Our schedules as Stripe's recurring intervals (one-time never subscribes). */
export const stripeIntervals: Record<
  RecurringSchedule,
  { interval: 'week' | 'month' | 'year'; interval_count: number }
> = {
  week: { interval: 'week', interval_count: 1 },
  'bi-weekly': { interval: 'week', interval_count: 2 },
  month: { interval: 'month', interval_count: 1 },
  quarter: { interval: 'month', interval_count: 3 },
  'bi-yearly': { interval: 'month', interval_count: 6 },
  year: { interval: 'year', interval_count: 1 },
};

const brands: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
};

/** What a card error says to the person paying (Stripe's decline codes, kept to a few texts). */
export function outcomeOfCardError(error: Stripe.errors.StripeCardError): ChargeOutcome {
  if (
    error.code === 'authentication_required' ||
    error.decline_code === 'authentication_required'
  ) {
    return { status: 'requires-action', message: stripeMessages.requiresAuthentication };
  }
  const code = error.decline_code ?? error.code;
  const message =
    code === 'insufficient_funds'
      ? cardMessages.insufficientFunds
      : code === 'expired_card'
        ? cardMessages.expired
        : code === 'incorrect_cvc'
          ? stripeMessages.incorrectCvc
          : code === 'processing_error'
            ? stripeMessages.processingError
            : // Lost, stolen, fraudulent, generic: the payer is told no more than "declined".
              cardMessages.declined;
  return { status: 'declined', message };
}

function outcomeOfIntent(intent: Stripe.PaymentIntent): ChargeOutcome | null {
  if (intent.status === 'succeeded') return { status: 'succeeded', chargeId: intent.id };
  if (intent.status === 'requires_action') {
    return { status: 'requires-action', message: stripeMessages.requiresAuthentication };
  }
  if (intent.status === 'requires_payment_method') {
    return { status: 'declined', message: cardMessages.declined };
  }
  return null;
}

/**
 * The Stripe adapter (decision 0057). Cards are PaymentMethods made by Stripe Elements in the
 * browser and attached here to the person's Stripe Customer (one per organisation and person,
 * kept in processor_customers). A charge is a PaymentIntent confirmed off-session with our
 * idempotency key as Stripe's. A card error is an outcome; anything else — no answer, a 5xx,
 * a refused request — throws, so the charge service asks again with the same key.
 */
export function stripeProcessor(db: Db, stripe: Stripe): PaymentProcessor {
  async function customerOf(person: { orgId: string; userId: string }): Promise<string> {
    const known = await findProcessorCustomer(db, person);
    if (known) return known;
    const customer = await stripe.customers.create(
      { metadata: { orgId: person.orgId, userId: person.userId } },
      { idempotencyKey: `customer:${person.orgId}:${person.userId}` },
    );
    return keepProcessorCustomer(db, person, customer.id);
  }

  return {
    kind: 'stripe',

    async createProduct({ orgId, productId, name }) {
      const product = await stripe.products.create(
        { name, metadata: { orgId, productId } },
        { idempotencyKey: `product:${productId}` },
      );
      return product.id;
    },

    // Stripe checks the card with its bank when it is attached (a card that fails is a card
    // error here), so `verify` asks nothing more.
    async saveCard({ orgId, userId, card }) {
      if (card.kind !== 'processor-payment-method') {
        return { ok: false, message: stripeMessages.numberRefused };
      }
      const customer = await customerOf({ orgId, userId });
      let method: Stripe.PaymentMethod;
      try {
        method = await stripe.paymentMethods.attach(card.processorPaymentMethodId, { customer });
      } catch (error) {
        if (error instanceof Stripe.errors.StripeCardError) {
          const outcome = outcomeOfCardError(error);
          return {
            ok: false,
            message: 'message' in outcome ? outcome.message : cardMessages.declined,
          };
        }
        // An unknown PaymentMethod, or one of another customer: what the browser sent is wrong.
        if (error instanceof Stripe.errors.StripeInvalidRequestError) {
          return { ok: false, message: stripeMessages.cardNotSaved };
        }
        throw error;
      }
      if (!method.card) return { ok: false, message: stripeMessages.notACard };
      const stored: StoredCard = {
        processorPaymentMethodId: method.id,
        brand: brands[method.card.brand] ?? method.card.brand,
        last4: method.card.last4,
        expMonth: method.card.exp_month,
        expYear: method.card.exp_year,
      };
      return { ok: true, card: stored };
    },

    async charge(request) {
      const customer = await customerOf(request);
      let intent: Stripe.PaymentIntent;
      try {
        intent = await stripe.paymentIntents.create(
          {
            amount: request.amountMinor,
            currency: request.currency.toLowerCase(),
            customer,
            payment_method: request.processorPaymentMethodId,
            confirm: true,
            off_session: true,
            description: request.description,
            metadata: { orgId: request.orgId },
          },
          { idempotencyKey: request.idempotencyKey },
        );
      } catch (error) {
        if (error instanceof Stripe.errors.StripeCardError) return outcomeOfCardError(error);
        throw error;
      }
      const outcome = outcomeOfIntent(intent);
      if (outcome) return outcome;
      // 'processing': the same key would answer this very state for a day; read where it is now.
      const current = await stripe.paymentIntents.retrieve(intent.id);
      const settled = outcomeOfIntent(current);
      if (settled) return settled;
      throw new Error(`the payment ${intent.id} is still ${current.status}`);
    },

    // A refund of the PaymentIntent our charge confirmed (its id is the charge id we keep).
    // Stripe settles refunds later ('pending'); accepted is what we record. One it will not
    // make (already refunded, nothing to refund) is an answer; anything else throws.
    async refund(request) {
      let refund: Stripe.Refund;
      try {
        refund = await stripe.refunds.create(
          {
            payment_intent: request.chargeId,
            amount: request.amountMinor,
            metadata: { orgId: request.orgId },
          },
          { idempotencyKey: request.idempotencyKey },
        );
      } catch (error) {
        if (
          error instanceof Stripe.errors.StripeInvalidRequestError &&
          refusedRefundCodes.has(error.code ?? '')
        )
          return { status: 'refused', message: stripeMessages.refundRefused };
        throw error;
      }
      if (refund.status === 'failed' || refund.status === 'canceled')
        return { status: 'refused', message: stripeMessages.refundRefused };
      return { status: 'refunded', refundId: refund.id };
    },

    async startSubscription(request) {
      const customer = await customerOf(request);
      const firstBilling = noonOn(request.firstBillingDate, request.timeZone);
      // The price before any coupon, and the coupon for as long as our rules say (decision 0060).
      const discounts = request.discount
        ? [{ coupon: await stripeCouponFor(stripe, { ...request, discount: request.discount }) }]
        : null;
      const create = stripe.subscriptions.create(
        {
          customer,
          default_payment_method: request.processorPaymentMethodId,
          items: [
            {
              price_data: {
                currency: request.currency.toLowerCase(),
                product: request.processorProductId,
                unit_amount: request.priceMinor,
                recurring: stripeIntervals[request.schedule],
              },
            },
          ],
          // We charged the first period ourselves: Stripe's first invoice is on that day, and
          // nothing is prorated before it.
          trial_end: Math.floor(firstBilling / 1000),
          proration_behavior: 'none',
          off_session: true,
          ...(discounts ? { discounts } : {}),
          metadata: { orgId: request.orgId, subscriptionId: request.subscriptionId },
        },
        { idempotencyKey: request.idempotencyKey },
      );
      const charging = (made: Stripe.Subscription) => {
        const method = made.default_payment_method;
        return {
          processorSubscriptionId: made.id,
          ...(method
            ? { processorPaymentMethodId: typeof method === 'string' ? method : method.id }
            : {}),
        };
      };
      try {
        return charging(await create);
      } catch (error) {
        // Asked before with other details (its answer lost, then the card replaced or the
        // organisation's time zone changed): Stripe made one then — the one to keep, found by the
        // id it carries; the caller then brings its card up to date.
        if (!(error instanceof Stripe.errors.StripeIdempotencyError)) throw error;
        for await (const made of stripe.subscriptions.list({ customer, status: 'all', limit: 100 }))
          if (made.metadata?.subscriptionId === request.subscriptionId) return charging(made);
        throw error;
      }
    },

    // Stripe charges a subscription's invoices — the retries of one past due included — to its
    // default payment method, which overrides the customer's.
    async useCardForSubscription({ processorSubscriptionId, processorPaymentMethodId }) {
      await stripe.subscriptions.update(
        processorSubscriptionId,
        { default_payment_method: processorPaymentMethodId },
        {
          idempotencyKey: `default-payment-method:${processorSubscriptionId}:${processorPaymentMethodId}`,
        },
      );
    },

    async cancelSubscriptionAtPeriodEnd({ processorSubscriptionId }) {
      await stripe.subscriptions.update(
        processorSubscriptionId,
        { cancel_at_period_end: true },
        { idempotencyKey: `cancel-at-period-end:${processorSubscriptionId}` },
      );
    },
  };
}

/** The event in a webhook's body when Stripe signed it with this secret; null otherwise. */
export function verifiedStripeEvent(
  body: Buffer,
  signature: string | undefined,
  secret: string,
): Stripe.Event | null {
  if (!signature) return null;
  try {
    return Stripe.webhooks.constructEvent(body, signature, secret);
  } catch {
    // A wrong or stale signature, or a body that is not an event: nothing of it is read.
    return null;
  }
}

export const processorUnavailableMessage =
  'Payment processing is not available right now. Nothing was charged twice: try again in a moment.';

/** No answer, Stripe's own failure or its rate limit: an outage (503), not our fault (500). */
export function isProcessorOutage(error: unknown): boolean {
  return (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError ||
    (error instanceof Stripe.errors.StripeError && (error.statusCode ?? 0) >= 500)
  );
}

/**
 * The adapter with outages said as such: every method throws ServiceUnavailable when Stripe
 * cannot be reached or fails on its side. Still a throw, so the charge service keeps the
 * attempt's key for the retry (decision 0055).
 */
export function withOutagesAsUnavailable(processor: PaymentProcessor): PaymentProcessor {
  const guard =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await call(...args);
      } catch (error) {
        if (isProcessorOutage(error)) {
          throw new ServiceUnavailable(processorUnavailableMessage);
        }
        throw error;
      }
    };
  return {
    kind: processor.kind,
    createProduct: guard(processor.createProduct.bind(processor)),
    saveCard: guard(processor.saveCard.bind(processor)),
    charge: guard(processor.charge.bind(processor)),
    refund: guard(processor.refund.bind(processor)),
    startSubscription: guard(processor.startSubscription.bind(processor)),
    useCardForSubscription: guard(processor.useCardForSubscription.bind(processor)),
    cancelSubscriptionAtPeriodEnd: guard(processor.cancelSubscriptionAtPeriodEnd.bind(processor)),
  };
}
