import { asc, eq, sql } from 'drizzle-orm';
import { invoices, subscriptions } from '@platform/schema/db';
import { DEFAULT_CURRENCY } from '@platform/schema/payments/money';
import type { ProcessorKind } from '@platform/schema/payments/processor.zod';
import {
  compareOverviewRows,
  OVERVIEW_LIMIT,
  overviewStatusOrder,
  type SubscriptionsOverview,
} from '@platform/schema/payments/subscriptions-overview.zod';
import { rosterNamesOf } from '../crm/customers.service.ts';
import type { Db } from '../db/open-database.ts';

/** The status's rank in the overview's order, as SQL (one source: overviewStatusOrder). */
const statusRank = sql.raw(
  `case ${Object.entries(overviewStatusOrder)
    .map(([status, rank]) => `when "subscriptions"."status" = '${status}' then ${rank}`)
    .join(' ')} else 9 end`,
);

/**
 * GET /api/subscriptions (issue 15, /dashboard/org-subscription): every subscription of the
 * organisation's customers — past due first, the next charge and what it will be — and which
 * processor takes the organisation's cards. Server state, not replicated: it is a report over
 * the whole organisation for staff, and staff holding only manage-products replicate no
 * purchases (decision 0058).
 */
export async function subscriptionsOverview(
  db: Db,
  viewer: { orgId: string },
  processor: ProcessorKind,
): Promise<SubscriptionsOverview> {
  const rows = await db
    .select({
      id: subscriptions.id,
      customerUserId: subscriptions.customerUserId,
      productName: subscriptions.productName,
      status: subscriptions.status,
      startedOn: subscriptions.startedOn,
      nextBillingDate: subscriptions.nextBillingDate,
      priceMinor: subscriptions.priceMinor,
      externalPayments: subscriptions.externalPayments,
      // What the processor bills each renewal: the first invoice's (decision 0057).
      renewalMinor: sql<number | null>`(${invoices.totals} ->> 'recurringFinalAmount')::int`,
    })
    .from(subscriptions)
    .leftJoin(invoices, eq(invoices.id, subscriptions.firstInvoiceId))
    .where(eq(subscriptions.orgId, viewer.orgId))
    .orderBy(
      statusRank,
      sql`${subscriptions.nextBillingDate} asc nulls last`,
      asc(subscriptions.id),
    )
    .limit(OVERVIEW_LIMIT + 1);
  const kept = rows.slice(0, OVERVIEW_LIMIT);
  const names = await rosterNamesOf(
    db,
    viewer.orgId,
    kept.map((row) => row.customerUserId),
  );
  const list = kept.map((row) => ({
    id: row.id,
    rosterId: names.get(row.customerUserId)?.rosterId ?? null,
    // Someone no longer on the list still holds it: say so rather than hide it.
    customerName: names.get(row.customerUserId)?.name ?? 'A former customer',
    productName: row.productName,
    status: row.status,
    startedOn: row.startedOn,
    nextBillingDate: row.status === 'cancelled' ? null : row.nextBillingDate,
    amountMinor: row.renewalMinor ?? row.priceMinor,
    externalPayments: row.externalPayments,
  }));
  return {
    processor,
    currency: DEFAULT_CURRENCY,
    subscriptions: list.sort(compareOverviewRows),
    truncated: rows.length > OVERVIEW_LIMIT,
  };
}
