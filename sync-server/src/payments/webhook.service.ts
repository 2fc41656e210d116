import { z } from 'zod';
import { dayKeyOf, orgTimeZone } from '@platform/schema/time-tracking/org-calendar';
import type { TotaledInvoice } from '@platform/schema/payments/totaling';
import type { subscriptions } from '@platform/schema/db';
import type { Db, Tx } from '../db/open-database.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { orgTimeZoneSetting } from './payments.repository.ts';
import { announceToBuyer } from './purchase-feeds.ts';
import { lockSubscriptionByProcessorId, updateSubscription } from './subscriptions.repository.ts';
import {
  insertRenewalInvoice,
  markEventProcessed,
  productName,
  recordFirstDelivery,
} from './webhook.repository.ts';

/**
 * The processor's webhook events (decision 0057). Each is processed once: its id is recorded
 * in the transaction of its effect (ON CONFLICT DO NOTHING), so a replay, or the same event
 * delivered twice at once, finds the record and does nothing. The organisation of an event is
 * the one of our subscription row the processor's subscription id names — never what the event
 * itself says. An event we cannot place (no such subscription, an unknown type, fields missing)
 * is recorded with why and answered 200, so it is not delivered again and again; only a failure
 * of our own (the database) answers 5xx, and the processor delivers it again later.
 */

export type ProcessorEvent = {
  id: string;
  type: string;
  created: number;
  data: { object: unknown };
};
type Jobs = Pick<JobQueue, 'enqueue'>;
type Subscription = typeof subscriptions.$inferSelect;

const idOf = z.union([z.string(), z.object({ id: z.string() }).transform((o) => o.id)]);
const amounts = z.array(z.object({ amount: z.number().int() })).nullish();

/** The fields of a Stripe invoice we read (validation at the edge). */
const invoiceSchema = z.object({
  id: z.string(),
  currency: z.string(),
  subtotal: z.number().int(),
  total: z.number().int(),
  total_discount_amounts: amounts,
  status_transitions: z.object({ paid_at: z.number().int().nullish() }).nullish(),
  parent: z.object({ subscription_details: z.object({ subscription: idOf }).nullish() }).nullish(),
  lines: z.object({
    data: z.array(
      z.object({
        amount: z.number().int(),
        description: z.string().nullish(),
        discount_amounts: amounts,
        period: z.object({ start: z.number().int(), end: z.number().int() }),
        parent: z
          .object({
            subscription_item_details: z
              .object({ subscription: z.string().nullish(), proration: z.boolean().nullish() })
              .nullish(),
          })
          .nullish(),
      }),
    ),
  }),
});
type StripeInvoice = z.infer<typeof invoiceSchema>;

const subscriptionSchema = z.object({
  id: z.string(),
  status: z.string(),
  cancel_at_period_end: z.boolean(),
  canceled_at: z.number().int().nullish(),
  ended_at: z.number().int().nullish(),
});

export async function receiveProcessorEvent(
  db: Db,
  jobs: Jobs,
  event: ProcessorEvent,
  now = new Date(),
): Promise<{ replay: boolean; outcome: string }> {
  return db.transaction(async (tx) => {
    if (!(await recordFirstDelivery(tx, event))) return { replay: true, outcome: 'replay' };
    const outcome = await applyEvent(tx, jobs, event, now);
    await markEventProcessed(tx, event.id, outcome, now);
    return { replay: false, outcome };
  });
}

async function applyEvent(tx: Tx, jobs: Jobs, event: ProcessorEvent, now: Date) {
  switch (event.type) {
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoice = invoiceSchema.safeParse(event.data.object);
      if (!invoice.success) return 'ignored: not an invoice as expected';
      const subscription = await subscriptionOf(tx, subscriptionIdOf(invoice.data));
      if (!subscription) return 'ignored: no subscription of ours';
      return event.type === 'invoice.paid'
        ? renewalPaid(tx, subscription, invoice.data, event, now)
        : renewalFailed(tx, jobs, subscription, invoice.data, event);
    }
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const parsed = subscriptionSchema.safeParse(event.data.object);
      if (!parsed.success) return 'ignored: not a subscription as expected';
      const subscription = await subscriptionOf(tx, parsed.data.id);
      if (!subscription) return 'ignored: no subscription of ours';
      return subscriptionChanged(tx, subscription, parsed.data, event, now);
    }
    default:
      return 'ignored: a type we do not act on';
  }
}

const subscriptionOf = (tx: Tx, processorSubscriptionId: string | null) =>
  processorSubscriptionId ? lockSubscriptionByProcessorId(tx, processorSubscriptionId) : null;

function subscriptionIdOf(invoice: StripeInvoice): string | null {
  const fromParent = invoice.parent?.subscription_details?.subscription;
  if (fromParent) return fromParent;
  const line = invoice.lines.data.find((l) => l.parent?.subscription_item_details?.subscription);
  return line?.parent?.subscription_item_details?.subscription ?? null;
}

/** Whether an event may set the status: the processor delivers events in no particular order. */
const isLatest = (subscription: Subscription, event: ProcessorEvent) =>
  !subscription.processorEventAt || event.created * 1000 >= subscription.processorEventAt.getTime();

const sum = (list: Array<{ amount: number }> | null | undefined) =>
  (list ?? []).reduce((total, item) => total + item.amount, 0);

/**
 * invoice.paid: the renewal is recorded as a paid invoice of ours, totaled from the processor's
 * lines (its figures, not ours: it charged them), and the next billing date moves to the end of
 * the period paid for — read from the subscription line's period, in the organisation's
 * calendar (the invoice's own period_end is the past period's for a subscription billed ahead).
 */
async function renewalPaid(
  tx: Tx,
  subscription: Subscription,
  invoice: StripeInvoice,
  event: ProcessorEvent,
  now: Date,
) {
  const timeZone = orgTimeZone(await orgTimeZoneSetting(tx, subscription.orgId));
  const lines = invoice.lines.data;
  const periodLine = lines.find((l) => !l.parent?.subscription_item_details?.proration) ?? lines[0];
  if (!periodLine) return 'ignored: an invoice without lines';
  const periodEnd = dayKeyOf(periodLine.period.end * 1000, timeZone);
  const product = await productName(tx, subscription.productId);
  const lineItems = lines.map((line) => {
    const discount = sum(line.discount_amounts);
    const prorated = line.parent?.subscription_item_details?.proration ?? false;
    return {
      type: 'subscription' as const,
      description: line.description ?? product?.name ?? '',
      stripeProductId: product?.processorProductId ?? null,
      originalAmount: line.amount,
      finalAmount: line.amount - discount,
      discountAmount: discount,
      discountPercent: null,
      isProrated: prorated,
      prorationDescription: null,
    };
  });
  const totals: TotaledInvoice = {
    total: invoice.total,
    subtotal: invoice.subtotal,
    couponDiscount: sum(invoice.total_discount_amounts),
    recurringFinalAmount: periodLine.amount - sum(periodLine.discount_amounts),
    nextBillingDate: periodEnd,
    isProrated: lineItems.some((line) => line.isProrated),
    prorationDescription: null,
    lineItems,
  };
  const paidAt = invoice.status_transitions?.paid_at;
  await insertRenewalInvoice(tx, {
    orgId: subscription.orgId,
    customerUserId: subscription.customerUserId,
    productId: subscription.productId,
    productName: subscription.productName,
    couponId: subscription.couponId,
    priceMinor: subscription.priceMinor,
    // Not a choice for a renewal; the column wants one, and a renewal is never prorated by us.
    prorationMode: 'charge-prorated',
    totals,
    totalMinor: invoice.total,
    currency: invoice.currency.toUpperCase(),
    status: 'paid',
    processorInvoiceId: invoice.id,
    subscriptionId: subscription.id,
    paidAt: paidAt ? new Date(paidAt * 1000) : now,
  });
  const latest = isLatest(subscription, event);
  const revived = subscription.status === 'past-due' || subscription.status === 'scheduled';
  await updateSubscription(tx, subscription.id, {
    nextBillingDate:
      subscription.nextBillingDate && subscription.nextBillingDate > periodEnd
        ? subscription.nextBillingDate
        : periodEnd,
    ...(latest && revived
      ? { status: 'active', processorEventAt: new Date(event.created * 1000) }
      : {}),
  });
  await announceToBuyer(tx, subscription, ['purchases', 'invoices']);
  return 'applied';
}

/** invoice.payment_failed: past due, and the customer is told — by a job, not in this request. */
async function renewalFailed(
  tx: Tx,
  jobs: Jobs,
  subscription: Subscription,
  invoice: StripeInvoice,
  event: ProcessorEvent,
) {
  if (subscription.status === 'cancelled') return 'ignored: the subscription is cancelled';
  if (isLatest(subscription, event)) {
    await updateSubscription(tx, subscription.id, {
      status: 'past-due',
      processorEventAt: new Date(event.created * 1000),
    });
    await announceToBuyer(tx, subscription, ['purchases']);
  }
  await jobs.enqueue(
    'renewal-failed-notice',
    { orgId: subscription.orgId, subscriptionId: subscription.id, processorInvoiceId: invoice.id },
    { tx },
  );
  return 'applied';
}

/** customer.subscription.updated / .deleted: the processor's status as ours. */
async function subscriptionChanged(
  tx: Tx,
  subscription: Subscription,
  remote: z.infer<typeof subscriptionSchema>,
  event: ProcessorEvent,
  now: Date,
) {
  if (subscription.status === 'cancelled') return 'ignored: the subscription is cancelled';
  if (!isLatest(subscription, event)) return 'ignored: older than the status it has';
  const ended = event.type === 'customer.subscription.deleted' || remote.status === 'canceled';
  const endedAt = remote.canceled_at ?? remote.ended_at;
  const status: Subscription['status'] | null = ended
    ? 'cancelled'
    : ['active', 'trialing', 'past_due'].includes(remote.status) && remote.cancel_at_period_end
      ? 'cancel-at-period-end'
      : remote.status === 'past_due' || remote.status === 'unpaid'
        ? 'past-due'
        : remote.status === 'active'
          ? 'active'
          : remote.status === 'trialing'
            ? // Trialing is our own first period, paid by us, or a start still to come.
              subscription.status === 'scheduled'
              ? 'scheduled'
              : 'active'
            : null;
  if (!status) return `ignored: status ${remote.status} is not one of ours`;
  await updateSubscription(tx, subscription.id, {
    status,
    processorEventAt: new Date(event.created * 1000),
    ...(status === 'cancelled' ? { cancelledAt: endedAt ? new Date(endedAt * 1000) : now } : {}),
  });
  await announceToBuyer(tx, subscription, ['purchases']);
  return 'applied';
}
