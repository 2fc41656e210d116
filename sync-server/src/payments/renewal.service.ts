import type { paymentMethods, subscriptions } from '@platform/schema/db';
import { orgFormat } from '@platform/schema/organizations/org-format';
import { DEFAULT_CURRENCY } from '@platform/schema/payments/money';
import { billingCycleOf, totalRenewal } from '@platform/schema/payments/renewal-totaling';
import {
  dayKeyOf,
  orgTimeZone,
  startOfDay,
  type DayKey,
} from '@platform/schema/time-tracking/org-calendar';
import type { ChargeOutcome, PaymentProcessor } from '../adapters/payments/port.ts';
import { SANDBOX_SUBSCRIPTION_PREFIX } from '../adapters/payments/sandbox.ts';
import type { Db, Tx } from '../db/open-database.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { CHARGING_LEASE_MS } from './charge.service.ts';
import { couponTermsOf } from './coupon-terms.ts';
import * as repo from './payments.repository.ts';
import { announceToBuyer } from './purchase-feeds.ts';
import { cardsOf, findRenewalInvoice, renewalInvoiceOf } from './renewals.repository.ts';
import { lockSubscription, updateSubscription } from './subscriptions.repository.ts';

/**
 * Renewals of the subscriptions the sandbox bills (decision 0060) — what Stripe does for its own
 * (decision 0057), done here so the demo bills as real billing does. A subscription is due on
 * its next billing date in its organisation's calendar; each renewal is charged once:
 *
 * 1. Claim, in a transaction holding the subscription's row lock: the renewal invoice of that
 *    billing date is made by the first to ask (unique per subscription and date) and marked
 *    charging; a claim within another's lease answers "in progress". A subscription set to
 *    cancel at period end ends instead, nothing charged.
 * 2. Charge the card on file through the port, outside any transaction, with the key
 *    `renewal:{subscriptionId}:{billingDate}:{attempt}`: a retry, a second worker or a crash
 *    between charge and write asks the same question and the processor answers the first
 *    outcome. The attempt moves on only after a definite decline.
 * 3. Write the outcome under the lock again: paid → the period moves on, past-due or scheduled
 *    becomes active, the receipt is queued; declined → past due, the customer is told how to
 *    fix the card and a retry is set by RENEWAL_RETRY_DAYS; after the last retry fails the
 *    subscription ends.
 */

/** When a declined renewal is tried again: days after its first decline. Then it ends. */
export const RENEWAL_RETRY_DAYS = [1, 3, 5] as const;

export const renewalMessages = {
  noCard: 'There is no card on file for this subscription.',
} as const;

type Deps = { db: Db; processor: PaymentProcessor; jobs: Pick<JobQueue, 'enqueue'> };
type Subscription = typeof subscriptions.$inferSelect;
type Card = typeof paymentMethods.$inferSelect;
type Claim = Awaited<ReturnType<typeof claimRenewal>>;
type Claimed = Extract<Claim, { kind: 'charge' }>;

export type RenewalOutcome = 'not-due' | 'in-progress' | 'ended' | 'paid' | 'past-due';

const DAY_MS = 86_400_000;

/** Whether the sandbox renews this subscription (Stripe renews its own; external ones pay elsewhere). */
export function renewedBySandbox(subscription: Subscription): boolean {
  return (
    !subscription.externalPayments &&
    (subscription.processorSubscriptionId?.startsWith(SANDBOX_SUBSCRIPTION_PREFIX) ?? false)
  );
}

/** One subscription's renewal, if it is due (see the module comment). */
export async function renewSubscription(
  deps: Deps,
  target: { orgId: string; subscriptionId: string },
  now = new Date(),
): Promise<RenewalOutcome> {
  const claim = await deps.db.transaction((tx) =>
    claimRenewal(tx, deps.processor.kind, target, now),
  );
  if (claim.kind !== 'charge') return claim.kind;
  const outcome = await chargeOnce(deps, claim);
  return deps.db.transaction((tx) => writeOutcome(tx, deps.jobs, claim, outcome, now));
}

async function claimRenewal(
  tx: Tx,
  processor: PaymentProcessor['kind'],
  target: { orgId: string; subscriptionId: string },
  now: Date,
) {
  const subscription = await lockSubscription(tx, target.orgId, target.subscriptionId);
  if (!subscription || !renewedBySandbox(subscription)) return { kind: 'not-due' as const };
  const timeZone = orgTimeZone(await repo.orgTimeZoneSetting(tx, subscription.orgId));
  const billingDate = subscription.nextBillingDate;
  const today = dayKeyOf(now.getTime(), timeZone);
  if (!billingDate || billingDate > today || subscription.status === 'cancelled') {
    return { kind: 'not-due' as const };
  }
  // An agreed end (a card subscription imported with an end date, decision 0073): nothing is
  // billed on or after it — the period paid before it runs out, then it ends, as a cancellation
  // at the period's end does (the subscription-ends sweep marks it so ahead of this day).
  const agreedEnd = subscription.endsOn !== null && billingDate >= subscription.endsOn;
  if (subscription.status === 'cancel-at-period-end' || agreedEnd) {
    // The paid period is over: it ends on its last billing date, and nothing is charged.
    await endSubscription(tx, subscription, new Date(startOfDay(billingDate, timeZone)));
    return { kind: 'ended' as const };
  }
  if (subscription.status === 'past-due' && (subscription.renewalRetryAt ?? now) > now) {
    return { kind: 'not-due' as const };
  }
  const invoice = await renewalInvoiceOf(
    tx,
    await renewalInvoiceValues(tx, subscription, billingDate, timeZone, now),
  );
  if (invoice.status === 'paid' || invoice.status === 'void') return { kind: 'not-due' as const };
  if (
    invoice.status === 'charging' &&
    invoice.chargingSince &&
    now.getTime() - invoice.chargingSince.getTime() < CHARGING_LEASE_MS
  ) {
    return { kind: 'in-progress' as const };
  }
  // An attempt asked and never heard (its answer lost, or its writer gone) is asked again as it
  // was — the same card under the same key; after a decline the card on file is asked anew.
  const unheard =
    invoice.paymentMethodId !== null &&
    (invoice.status === 'charging' || invoice.failureMessage === null);
  const asked = unheard
    ? await repo.findPaymentMethod(
        tx,
        invoice.orgId,
        invoice.customerUserId,
        invoice.paymentMethodId!,
      )
    : null;
  const card = asked ?? (await cardOnFile(tx, subscription, processor));
  await repo.updateInvoice(tx, invoice.id, {
    status: 'charging',
    chargingSince: now,
    paymentMethodId: card?.id ?? null,
    failureMessage: null,
  });
  return { kind: 'charge' as const, subscription, invoice, card, billingDate };
}

/** The renewal invoice's row: its figures by the schema's renewal totaling (decision 0060). */
async function renewalInvoiceValues(
  tx: Tx,
  subscription: Subscription,
  billingDate: DayKey,
  timeZone: string,
  now: Date,
) {
  const { orgId } = subscription;
  const product = await repo.findProduct(tx, orgId, subscription.productId);
  const first = subscription.firstInvoiceId
    ? await repo.findInvoice(tx, orgId, subscription.firstInvoiceId)
    : null;
  // A card subscription started from a file has no first invoice of ours: its first charge is
  // this renewal on its start date, from which every period counts (decision 0073).
  const imported = !subscription.firstInvoiceId && !subscription.externalPayments;
  if (!product || product.schedule === 'one-time' || (!first && !imported)) {
    throw new Error(`subscription ${subscription.id} has no recurring product or first invoice`);
  }
  const coupon = subscription.couponId
    ? couponTermsOf(await repo.findCoupon(tx, orgId, subscription.couponId))
    : null;
  const totals = totalRenewal({
    product: {
      id: product.id,
      name: subscription.productName,
      schedule: product.schedule,
      stripeProductId: product.processorProductId,
    },
    priceMinor: subscription.priceMinor,
    coupon,
    cycle: first
      ? billingCycleOf(subscription.startedOn, first.totals)
      : { anchor: subscription.startedOn, couponFrom: subscription.startedOn },
    periodStart: billingDate,
    formatDay: orgFormat(timeZone).date,
  });
  return {
    orgId,
    customerUserId: subscription.customerUserId,
    productId: subscription.productId,
    productName: subscription.productName,
    couponId: subscription.couponId,
    priceMinor: subscription.priceMinor,
    // Not a choice for a renewal; the column wants one, and a renewal is never prorated.
    prorationMode: 'charge-prorated' as const,
    totals,
    totalMinor: totals.total,
    currency: first?.currency ?? DEFAULT_CURRENCY,
    subscriptionId: subscription.id,
    periodStart: billingDate,
    // The first attempt: the retries are counted from it.
    createdAt: now,
  };
}

/**
 * The card a renewal charges: the subscription's card on file (decision 0064) — the one it was
 * bought with until its customer replaces it in Purchase history, which is how a declined card
 * is fixed. Rows from before the card on file fall back to the card of their first invoice.
 */
async function cardOnFile(
  tx: Tx,
  subscription: Subscription,
  processor: PaymentProcessor['kind'],
): Promise<Card | null> {
  // Renewals run only where the sandbox is the processor; no processor keeps no cards.
  if (processor === 'none') return null;
  const cards = await cardsOf(tx, {
    orgId: subscription.orgId,
    userId: subscription.customerUserId,
    processor,
  });
  const first =
    !subscription.paymentMethodId && subscription.firstInvoiceId
      ? await repo.findInvoice(tx, subscription.orgId, subscription.firstInvoiceId)
      : null;
  const onFile = subscription.paymentMethodId ?? first?.paymentMethodId;
  return cards.find((card) => card.id === onFile) ?? null;
}

/** Asks the processor once per attempt; an outcome never heard leaves the attempt for a retry. */
async function chargeOnce(deps: Deps, claim: Claimed): Promise<ChargeOutcome> {
  const { invoice, card, subscription } = claim;
  if (invoice.totalMinor === 0) return { status: 'succeeded', chargeId: '' };
  if (!card) return { status: 'declined', message: renewalMessages.noCard };
  try {
    return await deps.processor.charge({
      orgId: invoice.orgId,
      userId: invoice.customerUserId,
      idempotencyKey: `renewal:${subscription.id}:${claim.billingDate}:${invoice.attempt}`,
      processorPaymentMethodId: card.processorPaymentMethodId,
      amountMinor: invoice.totalMinor,
      currency: invoice.currency,
      description: invoice.productName,
    });
  } catch (error) {
    // Never heard: the next run is the same attempt, asked with the same key.
    await repo.updateInvoice(deps.db, invoice.id, { status: 'open', chargingSince: null });
    throw error;
  }
}

async function writeOutcome(
  tx: Tx,
  jobs: Pick<JobQueue, 'enqueue'>,
  claim: Claimed,
  outcome: ChargeOutcome,
  now: Date,
): Promise<RenewalOutcome> {
  const { orgId } = claim.subscription;
  const subscription = await lockSubscription(tx, orgId, claim.subscription.id);
  const invoice = await repo.findInvoice(tx, orgId, claim.invoice.id);
  if (!subscription || !invoice) throw new Error('a renewal lost its subscription or invoice');
  // Another run with the same key wrote this very outcome first (its lease had run out).
  if (invoice.status === 'paid') return 'paid';
  if (invoice.status === 'void' || subscription.status === 'cancelled') return 'ended';
  if (invoice.attempt !== claim.invoice.attempt) return 'past-due';

  if (outcome.status === 'succeeded') {
    await repo.updateInvoice(tx, invoice.id, {
      status: 'paid',
      chargingSince: null,
      paidAt: now,
      processorChargeId: outcome.chargeId || null,
      failureMessage: null,
    });
    await updateSubscription(tx, subscription.id, {
      nextBillingDate: invoice.totals.nextBillingDate,
      // A cancellation asked for meanwhile stands: it ends after the period just paid.
      status: subscription.status === 'cancel-at-period-end' ? subscription.status : 'active',
      renewalRetryAt: null,
    });
    await announceToBuyer(tx, subscription, ['purchases', 'invoices']);
    await jobs.enqueue('payment-receipt', { orgId, invoiceId: invoice.id }, { tx });
    return 'paid';
  }

  const declines = invoice.attempt;
  const retryInDays = RENEWAL_RETRY_DAYS[declines - 1];
  const ends = retryInDays === undefined || subscription.status === 'cancel-at-period-end';
  await repo.updateInvoice(tx, invoice.id, {
    status: ends ? 'void' : 'open',
    chargingSince: null,
    attempt: invoice.attempt + 1,
    failureMessage: outcome.message,
  });
  if (ends) {
    await endSubscription(tx, subscription, now);
  } else {
    await updateSubscription(tx, subscription.id, {
      status: 'past-due',
      renewalRetryAt: new Date(invoice.createdAt.getTime() + retryInDays * DAY_MS),
    });
    await announceToBuyer(tx, subscription, ['purchases']);
  }
  // The customer is told at every decline how to fix the card; the last time, that it ended.
  if (subscription.status !== 'cancel-at-period-end') {
    await jobs.enqueue(
      'renewal-failed-notice',
      { orgId, subscriptionId: subscription.id, processorInvoiceId: invoice.id, ended: ends },
      { tx },
    );
  }
  return ends ? 'ended' : 'past-due';
}

/** Ends the subscription; a renewal left unpaid for it is void. */
async function endSubscription(tx: Tx, subscription: Subscription, endedAt: Date) {
  const open = subscription.nextBillingDate
    ? await findRenewalInvoice(
        tx,
        subscription.orgId,
        subscription.id,
        subscription.nextBillingDate,
      )
    : null;
  if (open && open.status !== 'paid') {
    await repo.updateInvoice(tx, open.id, { status: 'void', chargingSince: null });
  }
  await updateSubscription(tx, subscription.id, {
    status: 'cancelled',
    cancelledAt: endedAt,
    renewalRetryAt: null,
  });
  await announceToBuyer(tx, subscription, ['purchases']);
}
