import { and, asc, desc, eq, isNull, lte, ne, or, sql } from 'drizzle-orm';
import { invoices, organizations, paymentMethods, subscriptions } from '@platform/schema/db';
import type { DayKey } from '@platform/schema/time-tracking/org-calendar';
import type { Db, Tx } from '../db/open-database.ts';

type Reader = Db | Tx;

/**
 * Subscriptions the sandbox bills (its subscription ids begin with `prefix`) whose next billing
 * date is on or before `untilDay`, oldest first — a past-due one only once its retry is due.
 * Each with its organisation's time zone setting, for the caller to decide what "today" is.
 */
export async function renewalCandidates(
  db: Reader,
  input: { prefix: string; untilDay: DayKey; now: Date; limit: number },
) {
  return db
    .select({
      id: subscriptions.id,
      orgId: subscriptions.orgId,
      nextBillingDate: subscriptions.nextBillingDate,
      attributes: organizations.attributes,
    })
    .from(subscriptions)
    .innerJoin(organizations, eq(organizations.id, subscriptions.orgId))
    .where(
      and(
        ne(subscriptions.status, 'cancelled'),
        lte(subscriptions.nextBillingDate, input.untilDay),
        sql`starts_with(${subscriptions.processorSubscriptionId}, ${input.prefix})`,
        eq(subscriptions.externalPayments, false),
        or(
          ne(subscriptions.status, 'past-due'),
          isNull(subscriptions.renewalRetryAt),
          lte(subscriptions.renewalRetryAt, input.now),
        ),
      ),
    )
    .orderBy(asc(subscriptions.nextBillingDate))
    .limit(input.limit);
}

/**
 * The renewal invoice of a subscription for one billing date: inserted by the first to ask,
 * read by every other (invoices_renewal_period), so two workers never make two.
 */
export async function renewalInvoiceOf(tx: Tx, values: typeof invoices.$inferInsert) {
  const { subscriptionId, periodStart } = values;
  if (!subscriptionId || !periodStart) throw new Error('a renewal names its subscription and date');
  await tx
    .insert(invoices)
    .values(values)
    .onConflictDoNothing({
      target: [invoices.subscriptionId, invoices.periodStart],
      where: sql`${invoices.periodStart} is not null`,
    });
  const row = await findRenewalInvoice(tx, values.orgId, subscriptionId, periodStart);
  if (!row) throw new Error('the renewal invoice just written is not there');
  return row;
}

/** The renewal invoice for a billing date, if one was made. */
export async function findRenewalInvoice(
  db: Reader,
  orgId: string,
  subscriptionId: string,
  periodStart: DayKey,
) {
  const [row] = await db
    .select()
    .from(invoices)
    .where(
      and(
        eq(invoices.orgId, orgId),
        eq(invoices.subscriptionId, subscriptionId),
        eq(invoices.periodStart, periodStart),
      ),
    );
  return row ?? null;
}

/** A customer's cards of this processor in the organisation, newest first (removed ones left out). */
export async function cardsOf(
  db: Reader,
  input: { orgId: string; userId: string; processor: 'sandbox' | 'stripe' },
) {
  return db
    .select()
    .from(paymentMethods)
    .where(
      and(
        eq(paymentMethods.orgId, input.orgId),
        eq(paymentMethods.userId, input.userId),
        eq(paymentMethods.processor, input.processor),
        isNull(paymentMethods.removedAt),
      ),
    )
    .orderBy(desc(paymentMethods.createdAt));
}
