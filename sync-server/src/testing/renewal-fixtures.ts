import { and, eq, like, sql } from 'drizzle-orm';
import {
  coupons,
  invoices,
  organizations,
  paymentMethods,
  products,
  sandboxCharges,
  subscriptions,
} from '@platform/schema/db';
import type { RecurringSchedule } from '@platform/schema/payments/billing-calendar';
import type { DayKey } from '@platform/schema/time-tracking/org-calendar';
import type { PaymentProcessor } from '../adapters/payments/port.ts';
import { sandboxProcessor } from '../adapters/payments/sandbox.ts';
import type { Database, Db } from '../db/open-database.ts';
import { runCharge, totalCharge } from '../payments/charge.service.ts';
import { insertTestOrg, insertTestUser, uniqueEmail } from './auth-fixtures.ts';

/** Noon of a day in New York (the default zone of a new organisation), in winter or summer. */
export const noonOf = (day: DayKey) => new Date(`${day}T17:00:00.000Z`);

export const sandboxCardNumbers = {
  succeeds: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
} as const;

/** A card of the customer's kept by the sandbox, as the desk keeps one; returns its row. */
export async function addSandboxCard(
  db: Db,
  person: { orgId: string; userId: string },
  number: string,
  createdAt?: Date,
) {
  const saved = await sandboxProcessor(db).saveCard({
    ...person,
    card: { kind: 'card-number', number, expMonth: 12, expYear: 2035, cvc: '123' },
  });
  if (!saved.ok) throw new Error(saved.message);
  const [row] = await db
    .insert(paymentMethods)
    .values({
      ...person,
      processor: 'sandbox',
      ...saved.card,
      ...(createdAt ? { createdAt } : {}),
    })
    .returning();
  return row!;
}

/**
 * The subscription's card on file becomes a new card of this number, which renewals then charge
 * (decision 0064) — as Replace card in Purchase history makes it, without that route's check
 * with the bank, so that a card which declines can be on file (cancelled or emptied since).
 */
export async function putCardOnFile(
  db: Db,
  person: { orgId: string; userId: string },
  subscriptionId: string,
  number: string,
) {
  const row = await addSandboxCard(db, person, number, new Date(Date.now() + 1_000));
  await db
    .update(subscriptions)
    .set({
      paymentMethodId: row.id,
      card: { brand: row.brand, last4: row.last4, expMonth: row.expMonth, expYear: row.expYear },
    })
    .where(eq(subscriptions.id, subscriptionId));
  return row;
}

type CouponValues = Pick<
  typeof coupons.$inferInsert,
  'type' | 'amount' | 'durationType' | 'durationInMonths'
>;

/**
 * An organisation's customer who bought a recurring product with the sandbox on `boughtOn`
 * (charged at noon New York time), through the charge flow as staff run it.
 */
export async function subscribeWithSandbox(
  db: Db,
  options: {
    boughtOn: DayKey;
    schedule?: RecurringSchedule;
    priceMinor?: number;
    coupon?: CouponValues;
    startDate?: DayKey;
    timeZone?: string;
  },
) {
  const org = await insertTestOrg(db);
  if (options.timeZone) {
    await db
      .update(organizations)
      .set({ attributes: { timezone: options.timeZone } })
      .where(eq(organizations.id, org.id));
  }
  const staff = await insertTestUser(db);
  const customer = await insertTestUser(db, { email: uniqueEmail('renewing') });
  const [product] = await db
    .insert(products)
    .values({
      orgId: org.id,
      name: 'Unlimited classes',
      type: 'recurring',
      schedule: options.schedule ?? 'month',
      priceMinor: options.priceMinor ?? 9_900,
      processorProductId: 'prod_sandbox_renewals',
    })
    .returning();
  const [coupon] = options.coupon
    ? await db
        .insert(coupons)
        .values({ orgId: org.id, name: `Coupon ${org.id.slice(0, 6)}`, ...options.coupon })
        .returning()
    : [];
  const person = { orgId: org.id, userId: customer.id };
  const card = await addSandboxCard(db, person, sandboxCardNumbers.succeeds);
  const boughtAt = noonOf(options.boughtOn);
  const { invoiceId } = await totalCharge(
    db,
    {
      orgId: org.id,
      actorUserId: staff.id,
      customerUserId: customer.id,
      productId: product!.id,
      couponId: coupon?.id ?? null,
      paymentMethodId: card.id,
      priceMinor: null,
      startDate: options.startDate ?? null,
      prorationMode: 'charge-prorated',
      issuePunchCard: false,
    },
    boughtAt,
  );
  const processor = sandboxProcessor(db, () => boughtAt);
  const result = await runCharge(db, processor, { orgId: org.id, invoiceId }, boughtAt);
  if (!result.valid || !result.subscriptionId) throw new Error('the purchase was not made');
  /** The card on file becomes a new card of this number (see putCardOnFile). */
  const replaceCard = (number: string) => putCardOnFile(db, person, result.subscriptionId!, number);
  return {
    org,
    customer,
    product: product!,
    card,
    replaceCard,
    firstInvoiceId: invoiceId,
    subscriptionId: result.subscriptionId,
  };
}

export async function subscriptionRow(db: Db, subscriptionId: string) {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
  return row!;
}

/** The renewal invoices of a subscription, by billing date. */
export function renewalInvoices(db: Db, subscriptionId: string) {
  return db
    .select()
    .from(invoices)
    .where(
      and(eq(invoices.subscriptionId, subscriptionId), sql`${invoices.periodStart} is not null`),
    )
    .orderBy(invoices.periodStart);
}

/** What the sandbox was asked to charge for a subscription's renewals: key → amount, outcome. */
export async function renewalCharges(db: Db, subscriptionId: string) {
  const rows = await db
    .select()
    .from(sandboxCharges)
    .where(like(sandboxCharges.idempotencyKey, `renewal:${subscriptionId}:%`))
    .orderBy(sandboxCharges.createdAt);
  return rows.map((row) => [
    row.idempotencyKey.split(':').slice(2).join(':'),
    row.amountMinor,
    row.outcome,
  ]);
}

/** Jobs of a kind queued (waiting or done) whose payload names this subscription or invoice. */
export async function queuedJobs(database: Database, name: string, field: string, value: string) {
  const counts = await Promise.all(
    ['pgboss.job', 'pgboss.archive'].map(async (table) => {
      const { rows } = await database.executeSql(
        `select data from ${table} where name = $1 and data->>'${field}' = $2 order by created_on`,
        [name, value],
      );
      return rows as Array<{ data: Record<string, unknown> }>;
    }),
  );
  return counts.flat().map((row) => row.data);
}

/** A processor whose answer to a charge is lost after it charged (a dropped connection). */
export function losingAnswers(processor: PaymentProcessor, times: number): PaymentProcessor {
  let left = times;
  return {
    ...processor,
    async charge(request) {
      const outcome = await processor.charge(request);
      if (left-- > 0) throw new Error('the connection dropped before the answer came');
      return outcome;
    },
  };
}
