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
 * date, or an invitation's, decision 0073): once the next charge would fall on or after the
 * agreed end, it is set to end at its period's end — at the processor first, then our row, and
 * its owner's devices are told. The period paid before the end runs out; nothing is charged on
 * or after it (the sandbox's renewal also refuses to: renewal.service.ts).
 *
 * Until the processor has said yes (`processor_stop_asked_at`) the row is asked again every
 * run: one the processor had not started when the row was set (its subscription made after),
 * or whose ask failed (our row unchanged then, and asked next hour). Every candidate is visited
 * each run, a page at a time: rows the processor keeps refusing do not hold back the others.
 * Answers how many were set to end.
 */
export async function windDownAgreedEnds(
  deps: { db: Db; processor: PaymentProcessor },
  now = new Date(),
  pageSize = 1000,
): Promise<number> {
  let marked = 0;
  let after: { day: string; id: string } | null = null;
  for (;;) {
    const page = await windDownCandidates(deps.db, { after, limit: pageSize });
    for (const candidate of page) {
      let asked = false;
      if (candidate.processorSubscriptionId) {
        try {
          await deps.processor.cancelSubscriptionAtPeriodEnd({
            orgId: candidate.orgId,
            processorSubscriptionId: candidate.processorSubscriptionId,
          });
          asked = true;
        } catch {
          continue;
        }
      }
      const owner = await deps.db.transaction(async (tx) => {
        const changed = await markCancelAtPeriodEnd(tx, candidate.id, { now, asked });
        if (changed)
          await notifyChange(tx, {
            collection: 'purchases',
            orgId: candidate.orgId,
            ownerIds: [changed],
          });
        return changed;
      });
      if (owner) marked++;
    }
    if (page.length < pageSize) return marked;
    const last = page[page.length - 1]!;
    after = { day: last.nextBillingDate, id: last.id };
  }
}
