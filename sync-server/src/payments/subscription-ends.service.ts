import { addDays, dayKeyOf, orgTimeZone } from '@platform/schema/time-tracking/org-calendar';
import type { PaymentProcessor } from '../adapters/payments/port.ts';
import type { Db } from '../db/open-database.ts';
import { notifyChange } from '../sync/change-feed.ts';
import {
  agreedEndCandidates,
  endSubscriptions,
  markCancelAtPeriodEnd,
  windDownCandidates,
} from './subscriptions.repository.ts';

/**
 * The subscription-ends sweep (a cron job; decision 0073): a subscription paid outside the
 * platform ends on its agreed day (an imported end date), or at the end of its period once its
 * customer cancelled it — in its organisation's calendar — and its owner's devices are told.
 * Answers how many ended.
 */
export async function endAgreedSubscriptions(db: Db, now = new Date(), limit = 1000) {
  // No time zone is a day ahead of UTC's: everything ending anywhere ends by tomorrow in UTC.
  const untilDay = addDays(dayKeyOf(now.getTime(), 'UTC'), 1);
  const candidates = await agreedEndCandidates(db, untilDay, limit);
  const byOrg = new Map<string, string[]>();
  for (const candidate of candidates) {
    const today = dayKeyOf(now.getTime(), orgTimeZone(candidate.timezone ?? undefined));
    const agreedEnd = candidate.endsOn !== null && candidate.endsOn <= today;
    // Cancelled by its customer: it runs to the end of the period paid for (none known: now).
    const periodOver =
      candidate.cancelling && (candidate.periodEnd === null || candidate.periodEnd <= today);
    if (!agreedEnd && !periodOver) continue;
    byOrg.set(candidate.orgId, [...(byOrg.get(candidate.orgId) ?? []), candidate.id]);
  }
  let ended = 0;
  for (const [orgId, ids] of byOrg)
    ended += await db.transaction(async (tx) => {
      const owners = await endSubscriptions(tx, orgId, ids, now);
      if (owners.length > 0)
        await notifyChange(tx, { collection: 'purchases', orgId, ownerIds: [...new Set(owners)] });
      return owners.length;
    });
  return ended;
}

/**
 * The same sweep for subscriptions a processor bills (a card subscription imported with an end
 * date, decision 0073): once the next charge would fall on or after the agreed end, it is set
 * to end at its period's end — at the processor first (were that to fail, nothing here says it
 * stopped, and the next sweep asks again), then our row, and its owner's devices are told. The
 * period paid before the end runs out; nothing is charged on or after it (the sandbox's renewal
 * also refuses to: renewal.service.ts). One the processor has not started yet is stopped by its
 * start job, which sees the status (card-subscription-start.service.ts). Answers how many.
 */
export async function windDownAgreedEnds(
  deps: { db: Db; processor: PaymentProcessor },
  now = new Date(),
  limit = 1000,
): Promise<number> {
  let marked = 0;
  for (const candidate of await windDownCandidates(deps.db, limit)) {
    if (candidate.processorSubscriptionId) {
      try {
        await deps.processor.cancelSubscriptionAtPeriodEnd({
          orgId: candidate.orgId,
          processorSubscriptionId: candidate.processorSubscriptionId,
        });
      } catch {
        continue;
      }
    }
    marked += await deps.db.transaction(async (tx) => {
      const changed = await markCancelAtPeriodEnd(tx, candidate.id, now);
      if (changed > 0)
        await notifyChange(tx, {
          collection: 'purchases',
          orgId: candidate.orgId,
          ownerIds: [candidate.customerUserId],
        });
      return changed;
    });
  }
  return marked;
}
