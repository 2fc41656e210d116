import { DEFAULT_CURRENCY } from '@platform/schema/payments/money';
import { orgTimeZone } from '@platform/schema/time-tracking/org-calendar';
import type { PaymentProcessor } from '../adapters/payments/port.ts';
import type { Db } from '../db/open-database.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import * as repo from './payments.repository.ts';
import {
  cardStartsPending,
  findSubscription,
  lockSubscription,
  setProcessorSubscriptionId,
} from './subscriptions.repository.ts';

/**
 * The processor's subscription of a card subscription started from a file (product
 * assignments, `start-stripe-subscription`, decision 0073). The import wrote our row —
 * `scheduled`, its card on file, its first billing on its start date — and queued this job in its
 * transaction, so nothing is asked of the processor unless the import was kept.
 *
 * Exactly once per subscription: the processor is asked with the key `subscription:{id}` (a
 * retry, a second worker or the hourly sweep asks the same question and is answered the same
 * subscription), and its id is written only where none is (setProcessorSubscriptionId). Nothing
 * is charged here: Stripe's first invoice is on the start date (`trial_end`), and the sandbox's
 * renewal job charges on it (renewal.service.ts).
 */

/** Subscriptions per job: a 5,000-row file is five jobs, each well inside its expiry. */
export const CARD_STARTS_PER_JOB = 1_000;

/** A start not done this long after its import is the hourly sweep's to ask again. */
const SWEEP_AFTER_MS = 15 * 60_000;

type Deps = { db: Db; processor: PaymentProcessor };

export type CardStartOutcome = 'started' | 'done-before' | 'not-startable';

/**
 * Starts each subscription at the processor (see the module comment). One that cannot be asked
 * now (the processor did not answer) does not hold back the others: they are all tried, and the
 * first failure is thrown afterwards so the job is retried — asking again those done is harmless.
 */
export async function startCardSubscriptions(
  deps: Deps,
  payload: { orgId: string; subscriptionIds: readonly string[] },
): Promise<CardStartOutcome[]> {
  const outcomes: CardStartOutcome[] = [];
  let failure: unknown = null;
  for (const subscriptionId of payload.subscriptionIds) {
    try {
      outcomes.push(await startOne(deps, payload.orgId, subscriptionId));
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure) throw failure;
  return outcomes;
}

async function startOne(
  deps: Deps,
  orgId: string,
  subscriptionId: string,
): Promise<CardStartOutcome> {
  const { db, processor } = deps;
  if (processor.kind === 'none') return 'not-startable';
  const subscription = await findSubscription(db, orgId, subscriptionId);
  if (!subscription) return 'not-startable';
  if (subscription.processorSubscriptionId) {
    // Made before (this is a retry, or the sweep): what was to be told to the processor after it
    // — a cancellation, a card replaced — may not have reached it (the ask failed), so it is
    // asked again; asking twice is harmless.
    const processorSubscriptionId = subscription.processorSubscriptionId;
    // (An ended one has nothing left to tell: the processor refuses to change an ended one.)
    if (subscription.status === 'cancelled') return 'done-before';
    if (subscription.status === 'cancel-at-period-end')
      await processor.cancelSubscriptionAtPeriodEnd({ orgId, processorSubscriptionId });
    else if (subscription.paymentMethodId) {
      const onFile = await repo.findPaymentMethod(
        db,
        orgId,
        subscription.customerUserId,
        subscription.paymentMethodId,
      );
      if (onFile)
        await processor.useCardForSubscription({
          orgId,
          userId: subscription.customerUserId,
          processorSubscriptionId,
          processorPaymentMethodId: onFile.processorPaymentMethodId,
        });
    }
    return 'done-before';
  }
  // Ended before its start (its customer or staff), or not a card subscription of a file.
  if (
    subscription.status === 'cancelled' ||
    subscription.externalPayments ||
    subscription.firstInvoiceId ||
    !subscription.paymentMethodId ||
    !subscription.nextBillingDate
  )
    return 'not-startable';
  const product = await repo.findProduct(db, orgId, subscription.productId);
  const card = await repo.findPaymentMethod(
    db,
    orgId,
    subscription.customerUserId,
    subscription.paymentMethodId,
  );
  if (!product?.processorProductId || product.schedule === 'one-time') return 'not-startable';
  // A card of another processor (the organisation moved) is not one this processor can charge.
  if (!card || card.processor !== processor.kind) return 'not-startable';
  const started = await processor.startSubscription({
    orgId,
    userId: subscription.customerUserId,
    processorProductId: product.processorProductId,
    // The agreed price is the price: no coupon (an imported discount is not one).
    priceMinor: subscription.priceMinor,
    discount: null,
    // The row's own time: the same on every retry, so the request is too.
    subscribedAt: subscription.createdAt,
    currency: DEFAULT_CURRENCY,
    schedule: product.schedule,
    firstBillingDate: subscription.nextBillingDate,
    timeZone: orgTimeZone(await repo.orgTimeZoneSetting(db, orgId)),
    processorPaymentMethodId: card.processorPaymentMethodId,
    subscriptionId: subscription.id,
    idempotencyKey: `subscription:${subscription.id}`,
  });
  // Written under the row's lock, with the row as it is then: a cancellation or a card replaced
  // while the processor was asked found no processor's subscription to tell, so it is told here.
  // (One that comes after this finds the id and tells it itself: shop.service.ts,
  // card-on-file.service.ts.)
  const now = await db.transaction(async (tx) => {
    const locked = await lockSubscription(tx, orgId, subscription.id);
    await setProcessorSubscriptionId(tx, subscription.id, started.processorSubscriptionId);
    return locked;
  });
  // The card it charges: the one asked with, or — one found that an earlier ask made — its own.
  const charging = started.processorPaymentMethodId ?? card.processorPaymentMethodId;
  const onFile = now?.paymentMethodId
    ? await repo.findPaymentMethod(db, orgId, subscription.customerUserId, now.paymentMethodId)
    : null;
  if (onFile && onFile.processorPaymentMethodId !== charging)
    await processor.useCardForSubscription({
      orgId,
      userId: subscription.customerUserId,
      processorSubscriptionId: started.processorSubscriptionId,
      processorPaymentMethodId: onFile.processorPaymentMethodId,
    });
  if (now && stopped(now.status))
    await processor.cancelSubscriptionAtPeriodEnd({
      orgId,
      processorSubscriptionId: started.processorSubscriptionId,
    });
  return 'started';
}

const stopped = (status: string) => status === 'cancel-at-period-end' || status === 'cancelled';

/**
 * The hourly sweep: card subscriptions from files whose start was not done (its job failed for
 * good, or was lost), and those cancelled before their first charge (the processor is asked
 * again to stop them until that day: a failed ask must not let it charge), queued again — one
 * job per organisation and batch.
 */
export async function queuePendingCardStarts(
  db: Db,
  jobs: Pick<JobQueue, 'enqueue'>,
  processor: PaymentProcessor['kind'],
  now = new Date(),
): Promise<number> {
  if (processor === 'none') return 0;
  const pending = await cardStartsPending(db, {
    processor,
    before: new Date(now.getTime() - SWEEP_AFTER_MS),
    limit: 5 * CARD_STARTS_PER_JOB,
  });
  const byOrg = new Map<string, string[]>();
  for (const row of pending) {
    const listed = byOrg.get(row.orgId);
    if (listed) listed.push(row.id);
    else byOrg.set(row.orgId, [row.id]);
  }
  for (const [orgId, ids] of byOrg)
    for (let at = 0; at < ids.length; at += CARD_STARTS_PER_JOB)
      await jobs.enqueue('card-subscription-start', {
        orgId,
        subscriptionIds: ids.slice(at, at + CARD_STARTS_PER_JOB),
      });
  return pending.length;
}
