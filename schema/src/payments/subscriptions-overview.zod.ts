import { z } from 'zod';
import type { Claim } from '../organizations/claims.ts';
import { MAX_AMOUNT_MINOR } from './money.ts';
import { processorKindSchema } from './processor.zod.ts';
import { subscriptionStatuses } from './purchase-docs.zod.ts';

/**
 * GET /api/subscriptions (issue 15, /dashboard/org-subscription): every subscription the
 * organisation's customers hold, for staff who sell or keep the catalogue — past due first,
 * then by the next charge — and which processor takes the organisation's cards.
 */

/** Who sees the overview: either claim (the catalogue's keepers, the front desk). */
export const subscriptionsOverviewClaims: readonly Claim[] = [
  'manage-products',
  'manage-point-of-sale',
];

export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

/** The order the overview lists statuses in: what needs someone's attention first. */
export const overviewStatusOrder: Record<SubscriptionStatus, number> = {
  'past-due': 0,
  active: 1,
  scheduled: 2,
  'cancel-at-period-end': 3,
  cancelled: 4,
};

/** The longest list one answer carries (the rest is said, not silently cut). */
export const OVERVIEW_LIMIT = 1000;

export const subscriptionOverviewRowSchema = z.object({
  id: z.uuid(),
  /** The customer's record in the organisation's list; null for someone no longer on it. */
  rosterId: z.uuid().nullable(),
  customerName: z.string(),
  productName: z.string(),
  status: z.enum(subscriptionStatuses),
  startedOn: z.iso.date(),
  /** The next charge, or the last day of one cancelled at period end; null once ended. */
  nextBillingDate: z.iso.date().nullable(),
  /** What each renewal charges (after a coupon that lasts), in minor units. */
  amountMinor: z.number().int().min(0).max(MAX_AMOUNT_MINOR),
  externalPayments: z.boolean(),
});
export type SubscriptionOverviewRow = z.infer<typeof subscriptionOverviewRowSchema>;

export const subscriptionsOverviewSchema = z.object({
  processor: processorKindSchema,
  currency: z.string(),
  subscriptions: z.array(subscriptionOverviewRowSchema),
  /** More than OVERVIEW_LIMIT: the list holds the first ones in its order. */
  truncated: z.boolean(),
});
export type SubscriptionsOverview = z.infer<typeof subscriptionsOverviewSchema>;

/**
 * The overview's order, in one place for the server's query and for tests: by status as above,
 * then the soonest next charge (none last), then the customer's name.
 */
export function compareOverviewRows(
  a: Pick<SubscriptionOverviewRow, 'status' | 'nextBillingDate' | 'customerName'>,
  b: Pick<SubscriptionOverviewRow, 'status' | 'nextBillingDate' | 'customerName'>,
): number {
  const byStatus = overviewStatusOrder[a.status] - overviewStatusOrder[b.status];
  if (byStatus !== 0) return byStatus;
  if (a.nextBillingDate !== b.nextBillingDate) {
    if (a.nextBillingDate === null) return 1;
    if (b.nextBillingDate === null) return -1;
    return a.nextBillingDate < b.nextBillingDate ? -1 : 1;
  }
  return a.customerName.localeCompare(b.customerName);
}
