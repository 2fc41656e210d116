import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';

/**
 * Webhook events as Stripe sends them (the fields our handler reads, in Stripe's shapes), and
 * their delivery signed as Stripe signs it (`generateTestHeaderString`, offline).
 */
const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const newId = (prefix: string) => `${prefix}_${randomBytes(10).toString('hex')}`;

export function stripeEvent<T extends object>(
  type: string,
  object: T,
  created = Math.floor(Date.now() / 1000),
) {
  return {
    id: newId('evt'),
    object: 'event',
    api_version: Stripe.API_VERSION,
    created,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

/** A renewal invoice of a subscription: one line for the period from `start` to `end` (ISO). */
export function stripeInvoice(input: {
  subscription: string;
  amount: number;
  start: string;
  end: string;
  status?: 'paid' | 'open';
}) {
  const paid = input.status !== 'open';
  return {
    id: newId('in'),
    object: 'invoice',
    billing_reason: 'subscription_cycle',
    currency: 'usd',
    customer: newId('cus'),
    status: paid ? 'paid' : 'open',
    subtotal: input.amount,
    total: input.amount,
    amount_due: input.amount,
    amount_paid: paid ? input.amount : 0,
    attempt_count: 1,
    total_discount_amounts: [],
    // Stripe's invoice period is the one just ended for a subscription billed ahead.
    period_start: seconds(input.start) - 30 * 86_400,
    period_end: seconds(input.start),
    status_transitions: { paid_at: paid ? seconds(input.start) : null },
    parent: {
      type: 'subscription_details',
      quote_details: null,
      subscription_details: { metadata: {}, subscription: input.subscription },
    },
    lines: {
      object: 'list',
      has_more: false,
      data: [
        {
          id: newId('il'),
          object: 'line_item',
          amount: input.amount,
          currency: 'usd',
          description: '1 × Unlimited classes',
          discount_amounts: [],
          period: { start: seconds(input.start), end: seconds(input.end) },
          parent: {
            type: 'subscription_item_details',
            invoice_item_details: null,
            subscription_item_details: {
              invoice_item: null,
              proration: false,
              proration_details: null,
              subscription: input.subscription,
              subscription_item: newId('si'),
            },
          },
        },
      ],
    },
  };
}

export function stripeSubscription(input: {
  id: string;
  status: string;
  cancelAtPeriodEnd?: boolean;
  canceledAt?: string;
}) {
  return {
    id: input.id,
    object: 'subscription',
    status: input.status,
    cancel_at_period_end: input.cancelAtPeriodEnd ?? false,
    canceled_at: input.canceledAt ? seconds(input.canceledAt) : null,
    ended_at: input.canceledAt ? seconds(input.canceledAt) : null,
    metadata: {},
  };
}

/** The request Stripe makes to deliver `event`, signed with `secret`. */
export function signedDelivery(event: object, secret: string) {
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return {
    method: 'POST' as const,
    url: '/api/stripe/webhook',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
    payload,
  };
}
