import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { subscriptions } from '@platform/schema/db';
import { renewingStatuses } from '@platform/schema/payments/card-on-file.rules';
import type { CardOnFile } from '@platform/schema/payments/purchase-docs.zod';
import { rowsOf, type Db, type Tx } from '../db/open-database.ts';

type Reader = Db | Tx;

export async function findSubscription(db: Reader, orgId: string, subscriptionId: string) {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.orgId, orgId), eq(subscriptions.id, subscriptionId)));
  return row ?? null;
}

/** The subscription, locked for this transaction (one renewal at a time per subscription). */
export async function lockSubscription(tx: Tx, orgId: string, subscriptionId: string) {
  const [row] = await tx
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.orgId, orgId), eq(subscriptions.id, subscriptionId)))
    .for('update');
  return row ?? null;
}

/** Ours for a processor's subscription id — the only way an event finds its organisation. */
export async function lockSubscriptionByProcessorId(tx: Tx, processorSubscriptionId: string) {
  const [row] = await tx
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.processorSubscriptionId, processorSubscriptionId))
    .for('update');
  return row ?? null;
}

/** Records the processor's subscription once: a second, racing answer (the same id) is a no-op. */
export async function setProcessorSubscriptionId(
  db: Reader,
  subscriptionId: string,
  processorSubscriptionId: string,
) {
  await db
    .update(subscriptions)
    .set({ processorSubscriptionId, updatedAt: new Date() })
    .where(
      and(eq(subscriptions.id, subscriptionId), isNull(subscriptions.processorSubscriptionId)),
    );
}

export async function updateSubscription(
  tx: Tx,
  subscriptionId: string,
  values: Partial<typeof subscriptions.$inferInsert>,
) {
  // A replicated row (decision 0058): every change says when it was made.
  await tx
    .update(subscriptions)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(subscriptions.id, subscriptionId));
}

/** A person's subscriptions in the organisation that will charge again (their card matters). */
export async function renewingSubscriptionsOf(db: Reader, orgId: string, userId: string) {
  return db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.orgId, orgId),
        eq(subscriptions.customerUserId, userId),
        inArray(subscriptions.status, [...renewingStatuses]),
      ),
    );
}

/** These subscriptions renew with this card from now on (decision 0064). */
export async function setSubscriptionsCard(
  tx: Tx,
  orgId: string,
  subscriptionIds: string[],
  method: { paymentMethodId: string; card: CardOnFile },
) {
  if (subscriptionIds.length === 0) return;
  await tx
    .update(subscriptions)
    .set({ paymentMethodId: method.paymentMethodId, card: method.card, updatedAt: new Date() })
    .where(and(eq(subscriptions.orgId, orgId), inArray(subscriptions.id, subscriptionIds)));
}

/**
 * Subscriptions paid outside the platform that may end by `untilDay`: an agreed end (decision
 * 0073), or a cancellation at the period's end (nothing renews them, so nothing else ends them).
 * With their organisation's time zone setting, for the caller's "today".
 */
export async function agreedEndCandidates(db: Reader, untilDay: string, limit: number) {
  return rowsOf<{
    id: string;
    orgId: string;
    endsOn: string | null;
    periodEnd: string | null;
    cancelling: boolean;
    timezone: string | null;
  }>(
    await db.execute(sql`
      select s.id, s.org_id as "orgId", s.ends_on::text as "endsOn",
        s.next_billing_date::text as "periodEnd",
        s.status = 'cancel-at-period-end' as cancelling, o.attributes->>'timezone' as timezone
      from subscriptions s join organizations o on o.id = s.org_id
      where s.status <> 'cancelled' and not s.deleted
        -- Only subscriptions paid outside the platform: one a processor bills is ended there
        -- (its webhook), or by the sandbox's renewal.
        and s.external_payments
        and (s.ends_on <= ${untilDay}
          or (s.status = 'cancel-at-period-end'
            and (s.next_billing_date is null or s.next_billing_date <= ${untilDay})))
      -- The earliest days first: those already due never wait behind ones due tomorrow.
      order by least(s.ends_on, case when s.status = 'cancel-at-period-end'
        then coalesce(s.next_billing_date, '1900-01-01') end), s.id
      limit ${limit}`),
  );
}

/** Ends the given subscriptions (of one organisation) if they have not ended meanwhile. */
export async function endSubscriptions(
  tx: Tx,
  orgId: string,
  ids: readonly string[],
  now: Date,
): Promise<string[]> {
  return rowsOf<{ customer_user_id: string }>(
    await tx.execute(sql`
      update subscriptions set status = 'cancelled', cancelled_at = ${now.toISOString()},
        next_billing_date = null, updated_at = ${now.toISOString()}
      where org_id = ${orgId} and status <> 'cancelled'
        and id in (select value::uuid from json_array_elements_text(${JSON.stringify(ids)}::json))
      returning customer_user_id`),
  ).map((row) => row.customer_user_id);
}

/**
 * Card subscriptions started from a file (no first invoice of ours, not paid outside) whose
 * processor's subscription was not made by `before`, or which were cancelled before their first
 * charge (still to come), on a card of this processor and a product it knows — oldest first.
 */
export async function cardStartsPending(
  db: Reader,
  input: { processor: 'sandbox' | 'stripe'; before: Date; limit: number },
) {
  return rowsOf<{ id: string; orgId: string }>(
    await db.execute(sql`
      select s.id, s.org_id as "orgId"
      from subscriptions s
      join payment_methods m on m.id = s.payment_method_id and m.processor = ${input.processor}
      join products p on p.id = s.product_id and p.processor_product_id is not null
      where s.first_invoice_id is null
        and not s.external_payments and s.status <> 'cancelled' and not s.deleted
        and s.next_billing_date is not null
        and s.created_at < ${input.before.toISOString()}::timestamptz
        and (s.processor_subscription_id is null
          -- Cancelled before its first charge: until that day, the processor is asked again.
          or (s.status = 'cancel-at-period-end'
            and s.next_billing_date >= ${input.before.toISOString()}::date
            and not exists (select 1 from invoices i
              where i.subscription_id = s.id and i.status = 'paid')))
      order by s.created_at, s.id
      limit ${input.limit}`),
  );
}

/**
 * Subscriptions a processor bills with an agreed end (decision 0073) to stop at their period's
 * end: still renewing while their next charge would be on or after the end, or set to stop
 * without the processor having said yes yet (set before its subscription was made, or its
 * answer failed). A page after `after` (next billing date, id), in that order.
 */
export async function windDownCandidates(
  db: Reader,
  input: { after: { day: string; id: string } | null; limit: number },
) {
  const after = input.after;
  return rowsOf<{
    id: string;
    orgId: string;
    nextBillingDate: string;
    processorSubscriptionId: string | null;
  }>(
    await db.execute(sql`
      select s.id, s.org_id as "orgId", s.next_billing_date::text as "nextBillingDate",
        s.processor_subscription_id as "processorSubscriptionId"
      from subscriptions s
      where not s.external_payments and not s.deleted and s.ends_on is not null
        and s.next_billing_date is not null
        and ((s.status in ('scheduled', 'active', 'past-due') and s.next_billing_date >= s.ends_on)
          or (s.status = 'cancel-at-period-end' and s.processor_subscription_id is not null
            and s.processor_stop_asked_at is null))
        ${after ? sql`and (s.next_billing_date, s.id) > (${after.day}::date, ${after.id}::uuid)` : sql``}
      order by s.next_billing_date, s.id
      limit ${input.limit}`),
  );
}

/**
 * Set to end at its period's end, if it still renews (a customer's or staff's change first);
 * `asked`: the processor said yes. The processor's events from before this no longer set its
 * status (one delivered late would make it renew again). Answers the row's owner when its
 * status changed (their devices are told), null otherwise.
 */
export async function markCancelAtPeriodEnd(
  tx: Tx,
  subscriptionId: string,
  input: { now: Date; asked: boolean },
): Promise<string | null> {
  const row = await tx
    .select({ status: subscriptions.status, owner: subscriptions.customerUserId })
    .from(subscriptions)
    .where(eq(subscriptions.id, subscriptionId))
    .for('update');
  const status = row[0]?.status;
  if (!status) return null;
  const renewing = (renewingStatuses as readonly string[]).includes(status);
  if (!renewing && (status !== 'cancel-at-period-end' || !input.asked)) return null;
  await tx
    .update(subscriptions)
    .set({
      ...(renewing
        ? {
            status: 'cancel-at-period-end' as const,
            processorEventAt: input.now,
            updatedAt: input.now,
          }
        : {}),
      ...(input.asked ? { processorStopAskedAt: input.now } : {}),
    })
    .where(eq(subscriptions.id, subscriptionId));
  return renewing ? row[0]!.owner : null;
}
