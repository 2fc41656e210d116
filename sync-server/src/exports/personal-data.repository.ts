import { sql } from 'drizzle-orm';
import { auditLog } from '@platform/schema/db';
import type { Db } from '../db/open-database.ts';
import { rowsOf } from '../db/open-database.ts';

/**
 * A person's own rows across the organisations they belong to (issue 17): read with explicit
 * columns — no password hash, tokens or card numbers.
 */
export async function personalRows(db: Db, userId: string) {
  const q = async (query: ReturnType<typeof sql>) =>
    rowsOf<Record<string, unknown>>(await db.execute(query));
  const [profile] = await q(sql`
    select u.id, u.email, u.first_name as "firstName", u.last_name as "lastName",
      u.middle_name as "middleName", u.date_of_birth as "dateOfBirth", u.created_at as "createdAt"
    from users u where u.id = ${userId}`);
  const memberships = await q(sql`
    select o.label as organization, m.kind, m.created_at as "since"
    from memberships m join organizations o on o.id = m.org_id
    where m.user_id = ${userId} order by m.created_at`);
  const subscriptions = await q(sql`
    select o.label as organization, s.product_name as product, s.price_minor / 100.0 as price,
      s.status, s.started_on as "startedOn", s.next_billing_date as "nextBillingDate",
      s.cancelled_at as "cancelledAt"
    from subscriptions s join organizations o on o.id = s.org_id
    where s.customer_user_id = ${userId} and not s.deleted order by s.created_at`);
  const invoices = await q(sql`
    select o.label as organization, i.product_name as product, i.total_minor / 100.0 as total,
      i.currency, i.status, i.created_at as "createdAt", i.paid_at as "paidAt"
    from invoices i join organizations o on o.id = i.org_id
    where i.customer_user_id = ${userId} and not i.deleted order by i.created_at`);
  const credits = await q(sql`
    select o.label as organization, c.product_name as product, c.group_name as "group",
      c.delta as credits, c.reason, c.created_at as "at"
    from punch_card_credits c join organizations o on o.id = c.org_id
    where c.customer_user_id = ${userId} and not c.deleted order by c.created_at`);
  const bookingPayments = await q(sql`
    select o.label as organization, p.description, p.amount_minor / 100.0 as amount, p.currency,
      p.status, p.paid_at as "paidAt", p.refunded_at as "refundedAt"
    from booking_payments p join organizations o on o.id = p.org_id
    where p.payer_user_id = ${userId} and p.processor_charge_id is not null
    order by p.created_at`);
  const bookings = await q(sql`
    select o.label as organization, coalesce(c.title, '') as class, c.starts_at as "startsAt",
      b.status, b.paid_with as "paidWith", b.requested_at as "requestedAt",
      b.checked_in_at as "checkedInAt"
    from bookings b join organizations o on o.id = b.org_id
    left join class_occurrences c on c.org_id = b.org_id and c.id::text = b.occurrence_id
    where b.customer_user_id = ${userId} and not b.deleted order by b.requested_at nulls last`);
  return {
    profile: profile ?? null,
    memberships,
    purchases: { subscriptions, invoices, credits, bookingPayments },
    bookings,
  };
}

/** The download is an audit row: who asked (at the keyboard) for whose data. */
export async function auditPersonalData(
  db: Db,
  entry: { actorUserId: string; subjectUserId: string; switchedFrom: string | null },
) {
  await db.insert(auditLog).values({
    orgId: null,
    actorUserId: entry.actorUserId,
    subjectUserId: entry.subjectUserId,
    action: 'personal-data-export',
    detail: { switchedFrom: entry.switchedFrom },
  });
}
