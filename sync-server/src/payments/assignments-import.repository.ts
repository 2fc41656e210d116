import { sql } from 'drizzle-orm';
import type { DayKey } from '@platform/schema/time-tracking/org-calendar';
import type { Schedule } from '@platform/schema/payments/billing-calendar';
import type { Tx } from '../db/open-database.ts';
import { rowsOf } from '../db/open-database.ts';

/**
 * The product assignments import's statements (issue 17, decision 0073): a batch in one
 * statement per kind of write (one JSON parameter), each idempotent by customer and product.
 */

export type AssignedProduct = {
  id: string;
  name: string;
  type: 'one-time' | 'recurring';
  schedule: Schedule;
  priceMinor: number;
  processorProductId: string | null;
  /** Sold at a price named with each sale (variable pricing, requires consultation). */
  variable: boolean;
};

/** The batch's products as they are now (archived or removed ones are not). */
export async function assignableProducts(
  tx: Tx,
  orgId: string,
  productIds: readonly string[],
): Promise<Map<string, AssignedProduct>> {
  const rows = rowsOf<AssignedProduct>(
    await tx.execute(sql`
      select id, name, type, schedule, price_minor as "priceMinor",
        processor_product_id as "processorProductId",
        (coalesce((variable_pricing->>'enabled')::boolean, false)
          or state = 'requires-consultation') as variable
      from products
      where org_id = ${orgId} and state <> 'archived' and not deleted
        and id in (select value::uuid from json_array_elements_text(${JSON.stringify([...new Set(productIds)])}::json))`),
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/** The batch's customers by address: who they are, and whether they pay outside the platform. */
export async function assignedCustomers(
  tx: Tx,
  orgId: string,
  emails: readonly string[],
): Promise<Map<string, { userId: string; email: string; externalPayments: boolean }>> {
  const rows = rowsOf<{ userId: string; email: string; externalPayments: boolean }>(
    await tx.execute(sql`
      select r.user_id as "userId", lower(r.email) as email,
        r.external_payments as "externalPayments"
      from roster_items r
      where r.org_id = ${orgId} and not r.deleted
        and lower(r.email) in (select json_array_elements_text(${JSON.stringify([...new Set(emails)])}::json))`),
  );
  return new Map(rows.map((row) => [row.email, row]));
}

export type ExternalSubscriptionRow = {
  userId: string;
  productId: string;
  priceMinor: number;
  status: 'scheduled' | 'active' | 'cancelled';
  startedOn: DayKey;
  nextBillingDate: DayKey | null;
  endsOn: DayKey | null;
  cancelledAt: string | null;
};

/**
 * Subscriptions paid outside the platform. A customer who already has one of the product that
 * has not ended — or an ended one with the same dates (a history row imported before) — is left
 * alone. Answers whose subscriptions were made.
 */
export async function insertExternalSubscriptions(
  tx: Tx,
  orgId: string,
  rows: readonly ExternalSubscriptionRow[],
): Promise<string[]> {
  if (rows.length === 0) return [];
  const json = JSON.stringify(
    rows.map((row) => ({
      user_id: row.userId,
      product_id: row.productId,
      price_minor: row.priceMinor,
      status: row.status,
      started_on: row.startedOn,
      next_billing_date: row.nextBillingDate,
      ends_on: row.endsOn,
      cancelled_at: row.cancelledAt,
    })),
  );
  return rowsOf<{ user_id: string }>(
    await tx.execute(sql`
      insert into subscriptions
        (org_id, customer_user_id, product_id, product_name, price_minor, status, started_on,
         next_billing_date, ends_on, external_payments, cancelled_at)
      select ${orgId}, i.user_id, p.id, p.name, i.price_minor, i.status, i.started_on,
        i.next_billing_date, i.ends_on, true, i.cancelled_at
      from json_to_recordset(${json}::json) as i(user_id uuid, product_id uuid, price_minor int,
        status text, started_on date, next_billing_date date, ends_on date,
        cancelled_at timestamptz)
      -- Read before the import's lock: a product archived or removed since gives nothing.
      join products p on p.id = i.product_id and p.org_id = ${orgId}
        and p.state <> 'archived' and not p.deleted and p.type = 'recurring'
      where not exists (
        select 1 from subscriptions s
        where s.org_id = ${orgId} and s.customer_user_id = i.user_id
          and s.product_id = i.product_id and not s.deleted
          and (s.status <> 'cancelled'
            or (s.started_on = i.started_on and s.ends_on is not distinct from i.ends_on)))
        -- An invitation to the product still open: the customer is answering it (by card).
        and not exists (
          select 1 from product_invites v
          where v.org_id = ${orgId} and v.customer_user_id = i.user_id
            and v.product_id = i.product_id and v.status = 'pending'
            and v.expires_at > now())
      order by i.user_id, p.id
      returning customer_user_id as user_id`),
  ).map((row) => row.user_id);
}

/**
 * One-time products paid outside the platform: kept as an accepted invitation, as Invite to
 * product records them (package-invites.service.ts). Once per customer and product.
 */
export async function insertExternalPurchases(
  tx: Tx,
  context: { orgId: string; staffUserId: string | null; now: Date },
  rows: ReadonlyArray<{ userId: string; productId: string; priceMinor: number }>,
): Promise<number> {
  if (rows.length === 0) return 0;
  const json = JSON.stringify(
    rows.map((row) => ({
      user_id: row.userId,
      product_id: row.productId,
      price_minor: row.priceMinor,
    })),
  );
  const { orgId, staffUserId } = context;
  const now = context.now.toISOString();
  return rowsOf<{ id: string }>(
    await tx.execute(sql`
      insert into product_invites
        (org_id, customer_user_id, product_id, price_minor, action, status, expires_at,
         answered_at, created_by_user_id)
      select ${orgId}, i.user_id, p.id, i.price_minor,
        'start-customer-subscription-for-external-payment', 'accepted', ${now}::timestamptz,
        ${now}::timestamptz,
        ${staffUserId}
      from json_to_recordset(${json}::json) as i(user_id uuid, product_id uuid, price_minor int)
      join products p on p.id = i.product_id and p.org_id = ${orgId}
        and p.state <> 'archived' and not p.deleted and p.type = 'one-time'
      where not exists (
        select 1 from product_invites v
        where v.org_id = ${orgId} and v.customer_user_id = i.user_id
          and v.product_id = i.product_id
          and ((v.status = 'accepted'
              and v.action = 'start-customer-subscription-for-external-payment')
            or (v.status = 'pending' and v.expires_at > ${now}::timestamptz)))
      order by i.user_id, p.id
      returning id`),
  ).length;
}

/**
 * Invitations to pay for a product (pending until paid or expired). A customer with an open
 * invitation to the product, or a subscription of it that has not ended, is not invited again.
 * Answers the invitations made, for their emails.
 */
export async function insertPendingInvites(
  tx: Tx,
  context: { orgId: string; staffUserId: string | null; now: Date; expiresAt: Date },
  rows: ReadonlyArray<{
    userId: string;
    productId: string;
    startDate: DayKey | null;
    /** The agreed last day of the subscription its payment starts. */
    endDate: DayKey | null;
    /** The agreed price (a discount); null = the product's. */
    priceMinor: number | null;
  }>,
): Promise<
  Array<{
    id: string;
    userId: string;
    productId: string;
    priceMinor: number | null;
    endDate: DayKey | null;
  }>
> {
  if (rows.length === 0) return [];
  const json = JSON.stringify(
    rows.map((row) => ({
      user_id: row.userId,
      product_id: row.productId,
      start_date: row.startDate,
      end_date: row.endDate,
      price_minor: row.priceMinor,
    })),
  );
  const { orgId, staffUserId } = context;
  const [now, expiresAt] = [context.now.toISOString(), context.expiresAt.toISOString()];
  return rowsOf<{
    id: string;
    user_id: string;
    product_id: string;
    price_minor: number | null;
    end_date: DayKey | null;
  }>(
    await tx.execute(sql`
      insert into product_invites
        (org_id, customer_user_id, product_id, start_date, end_date, price_minor, action, status,
         expires_at, created_by_user_id)
      select ${orgId}, i.user_id, p.id, i.start_date, i.end_date, i.price_minor,
        'create-customer-subscription-invite', 'pending', ${expiresAt}::timestamptz, ${staffUserId}
      from json_to_recordset(${json}::json) as i(user_id uuid, product_id uuid, start_date date,
        end_date date, price_minor int)
      join products p on p.id = i.product_id and p.org_id = ${orgId}
        and p.state <> 'archived' and not p.deleted
      where not exists (
          select 1 from product_invites v
          where v.org_id = ${orgId} and v.customer_user_id = i.user_id
            and v.product_id = i.product_id and v.status = 'pending' and v.expires_at > ${now}::timestamptz)
        and not exists (
          select 1 from subscriptions s
          where s.org_id = ${orgId} and s.customer_user_id = i.user_id
            and s.product_id = i.product_id and not s.deleted and s.status <> 'cancelled')
      order by i.user_id, p.id
      returning id, customer_user_id as user_id, product_id, price_minor,
        end_date::text as end_date`),
  ).map((row) => ({
    id: row.id,
    userId: row.user_id,
    productId: row.product_id,
    priceMinor: row.price_minor,
    endDate: row.end_date,
  }));
}

/** A customer's card the processor keeps for them in this organisation. */
export type CardOnFileRow = {
  userId: string;
  id: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
};

/**
 * Each of these customers' newest card of this processor in the organisation that is not
 * removed and still valid in the month `validIn` (a subscription's first charge): the card a
 * card subscription started from a file renews with. Customers without one are not in the map.
 */
export async function cardsOnFile(
  tx: Tx,
  input: { orgId: string; processor: 'sandbox' | 'stripe'; validIn: DayKey },
  userIds: readonly string[],
): Promise<Map<string, CardOnFileRow>> {
  if (userIds.length === 0) return new Map();
  const [year, month] = input.validIn.split('-').map(Number) as [number, number];
  const rows = rowsOf<CardOnFileRow>(
    await tx.execute(sql`
      select distinct on (m.user_id) m.user_id as "userId", m.id, m.brand, m.last4,
        m.exp_month as "expMonth", m.exp_year as "expYear"
      from payment_methods m
      where m.org_id = ${input.orgId} and m.processor = ${input.processor}
        and m.removed_at is null
        and (m.exp_year > ${year} or (m.exp_year = ${year} and m.exp_month >= ${month}))
        and m.user_id in (select value::uuid from json_array_elements_text(${JSON.stringify([...new Set(userIds)])}::json))
      order by m.user_id, m.created_at desc, m.id`),
  );
  return new Map(rows.map((row) => [row.userId, row]));
}

export type CardSubscriptionRow = {
  userId: string;
  productId: string;
  priceMinor: number;
  startedOn: DayKey;
  /** The agreed last day: nothing is billed on or after it (subscription-ends.service.ts). */
  endsOn: DayKey | null;
  card: CardOnFileRow;
};

/**
 * Subscriptions charged to the customer's card on file from their start (decision 0073): each
 * `scheduled`, its first billing on its start date, nothing charged now. Left alone as the paid
 * outside ones are (a subscription of the product not ended, or an invitation to it still open).
 * Answers the subscriptions made.
 */
export async function insertCardSubscriptions(
  tx: Tx,
  orgId: string,
  rows: readonly CardSubscriptionRow[],
): Promise<Array<{ id: string; userId: string }>> {
  if (rows.length === 0) return [];
  const json = JSON.stringify(
    rows.map((row) => ({
      user_id: row.userId,
      product_id: row.productId,
      price_minor: row.priceMinor,
      started_on: row.startedOn,
      ends_on: row.endsOn,
      payment_method_id: row.card.id,
      card: {
        brand: row.card.brand,
        last4: row.card.last4,
        expMonth: row.card.expMonth,
        expYear: row.card.expYear,
      },
    })),
  );
  return rowsOf<{ id: string; user_id: string }>(
    await tx.execute(sql`
      insert into subscriptions
        (org_id, customer_user_id, product_id, product_name, price_minor, status, started_on,
         next_billing_date, ends_on, external_payments, payment_method_id, card)
      select ${orgId}, i.user_id, p.id, p.name, i.price_minor, 'scheduled', i.started_on,
        i.started_on, i.ends_on, false, m.id, i.card
      from json_to_recordset(${json}::json) as i(user_id uuid, product_id uuid, price_minor int,
        started_on date, ends_on date, payment_method_id uuid, card jsonb)
      join products p on p.id = i.product_id and p.org_id = ${orgId}
        and p.state <> 'archived' and not p.deleted and p.type = 'recurring'
      -- The card read for the row, still the customer's here and not removed since.
      join payment_methods m on m.id = i.payment_method_id and m.org_id = ${orgId}
        and m.user_id = i.user_id and m.removed_at is null
      where not exists (
        select 1 from subscriptions s
        where s.org_id = ${orgId} and s.customer_user_id = i.user_id
          and s.product_id = i.product_id and not s.deleted
          -- Ended since it was imported (cancelled by its customer): the file again is no
          -- new subscription to charge.
          and (s.status <> 'cancelled' or s.started_on = i.started_on))
        and not exists (
          select 1 from product_invites v
          where v.org_id = ${orgId} and v.customer_user_id = i.user_id
            and v.product_id = i.product_id and v.status = 'pending'
            and v.expires_at > now())
      order by i.user_id, p.id
      returning id, customer_user_id as user_id`),
  ).map((row) => ({ id: row.id, userId: row.user_id }));
}
