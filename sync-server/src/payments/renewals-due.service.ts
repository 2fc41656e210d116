import { addDays, dayKeyOf, orgTimeZone } from '@platform/schema/time-tracking/org-calendar';
import { SANDBOX_SUBSCRIPTION_PREFIX } from '../adapters/payments/sandbox.ts';
import type { Db } from '../db/open-database.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { renewalCandidates } from './renewals.repository.ts';

/**
 * The renewals-due sweep (a cron job, decision 0060): one subscription-renewal job for each
 * subscription the sandbox bills that is due today in its organisation's calendar — a past-due
 * one once its retry is due. Each job carries the subscription's own organisation, and the
 * renewal reads nothing outside it. Returns how many were queued.
 */
export async function queueDueRenewals(
  db: Db,
  jobs: Pick<JobQueue, 'enqueue'>,
  now = new Date(),
  limit = 500,
): Promise<number> {
  // No time zone is a day ahead of UTC's: everything due anywhere is due by tomorrow in UTC.
  const untilDay = addDays(dayKeyOf(now.getTime(), 'UTC'), 1);
  const candidates = await renewalCandidates(db, {
    prefix: SANDBOX_SUBSCRIPTION_PREFIX,
    untilDay,
    now,
    limit,
  });
  let queued = 0;
  for (const candidate of candidates) {
    const today = dayKeyOf(now.getTime(), orgTimeZone(candidate.attributes.timezone));
    if (!candidate.nextBillingDate || candidate.nextBillingDate > today) continue;
    await jobs.enqueue('subscription-renewal', {
      orgId: candidate.orgId,
      subscriptionId: candidate.id,
    });
    queued++;
  }
  return queued;
}
