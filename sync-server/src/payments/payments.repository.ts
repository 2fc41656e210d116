import { and, asc, desc, eq, gte, isNull, lt, sql } from 'drizzle-orm';
import {
  coupons,
  invoices,
  organizations,
  paymentMethods,
  products,
  subscriptions,
  users,
} from '@platform/schema/db';
import type { CardOnFile } from '@platform/schema/payments/purchase-docs.zod';
import type { Db, Tx } from '../db/open-database.ts';

type Reader = Db | Tx;

export async function findProduct(db: Reader, orgId: string, productId: string) {
  const [row] = await db
    .select()
    .from(products)
    .where(and(eq(products.orgId, orgId), eq(products.id, productId)));
  return row ?? null;
}

export async function findCoupon(db: Reader, orgId: string, couponId: string) {
  const [row] = await db
    .select()
    .from(coupons)
    .where(and(eq(coupons.orgId, orgId), eq(coupons.id, couponId)));
  return row ?? null;
}

export async function findPaymentMethod(
  db: Reader,
  orgId: string,
  userId: string,
  paymentMethodId: string,
) {
  const [row] = await db
    .select()
    .from(paymentMethods)
    .where(
      and(
        eq(paymentMethods.orgId, orgId),
        eq(paymentMethods.userId, userId),
        eq(paymentMethods.id, paymentMethodId),
      ),
    );
  return row && !row.removedAt ? row : null;
}

export async function orgTimeZoneSetting(db: Reader, orgId: string): Promise<string | null> {
  const [row] = await db
    .select({ attributes: organizations.attributes })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  return row?.attributes.timezone ?? null;
}

export async function insertInvoice(db: Reader, values: typeof invoices.$inferInsert) {
  const [row] = await db.insert(invoices).values(values).returning();
  if (!row) throw new Error('invoice insert returned nothing');
  return row;
}

/** The invoice, locked for this transaction (one charge at a time per invoice). */
export async function lockInvoice(tx: Tx, orgId: string, invoiceId: string) {
  const [row] = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.orgId, orgId), eq(invoices.id, invoiceId)))
    .for('update');
  return row ?? null;
}

export async function updateInvoice(
  db: Reader,
  invoiceId: string,
  values: Partial<typeof invoices.$inferInsert>,
) {
  // A replicated row (decision 0058): every change says when it was made.
  await db
    .update(invoices)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(invoices.id, invoiceId));
}

/** Takes one redemption if any is left; false when the coupon is used up. */
export async function reserveCouponRedemption(db: Reader, couponId: string): Promise<boolean> {
  const rows = await db
    .update(coupons)
    .set({ timesRedeemed: sql`${coupons.timesRedeemed} + 1` })
    .where(
      and(
        eq(coupons.id, couponId),
        sql`(${coupons.numberOfRedemptions} is null or ${coupons.timesRedeemed} < ${coupons.numberOfRedemptions})`,
      ),
    )
    .returning({ id: coupons.id });
  return rows.length === 1;
}

export async function releaseCouponRedemption(db: Reader, couponId: string): Promise<void> {
  await db
    .update(coupons)
    .set({ timesRedeemed: sql`greatest(${coupons.timesRedeemed} - 1, 0)` })
    .where(eq(coupons.id, couponId));
}

export async function insertSubscription(db: Reader, values: typeof subscriptions.$inferInsert) {
  const [row] = await db.insert(subscriptions).values(values).returning();
  if (!row) throw new Error('subscription insert returned nothing');
  return row;
}

/** A customer's cards in this organisation, newest first (removed ones left out). */
export async function listPaymentMethods(db: Reader, orgId: string, userId: string) {
  return db
    .select()
    .from(paymentMethods)
    .where(
      and(
        eq(paymentMethods.orgId, orgId),
        eq(paymentMethods.userId, userId),
        isNull(paymentMethods.removedAt),
      ),
    )
    .orderBy(desc(paymentMethods.createdAt));
}

/** A kept card as its owner's devices show it: brand, last 4 and expiry, never more. */
export function cardOnFileOf(row: typeof paymentMethods.$inferSelect): CardOnFile {
  return { brand: row.brand, last4: row.last4, expMonth: row.expMonth, expYear: row.expYear };
}

export async function insertPaymentMethod(db: Reader, values: typeof paymentMethods.$inferInsert) {
  const [row] = await db.insert(paymentMethods).values(values).returning();
  if (!row) throw new Error('payment method insert returned nothing');
  return row;
}

/** The organisation's invoices paid in [from, to), oldest first, with their product's name. */
export async function paidInvoicesBetween(db: Reader, orgId: string, from: Date, to: Date) {
  return db
    .select({
      invoiceId: invoices.id,
      customerUserId: invoices.customerUserId,
      productName: products.name,
      totalMinor: invoices.totalMinor,
      currency: invoices.currency,
      paidAt: invoices.paidAt,
      subscriptionId: invoices.subscriptionId,
    })
    .from(invoices)
    .innerJoin(products, eq(products.id, invoices.productId))
    .where(
      and(
        eq(invoices.orgId, orgId),
        eq(invoices.status, 'paid'),
        gte(invoices.paidAt, from),
        lt(invoices.paidAt, to),
      ),
    )
    .orderBy(asc(invoices.paidAt));
}

export async function findInvoice(db: Reader, orgId: string, invoiceId: string) {
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.orgId, orgId), eq(invoices.id, invoiceId)));
  return row ?? null;
}

/** Another card for an invoice not charged yet (a refused card is replaced). */
export async function setOpenInvoicePaymentMethod(
  db: Reader,
  orgId: string,
  invoiceId: string,
  paymentMethodId: string,
) {
  await db
    .update(invoices)
    .set({ paymentMethodId })
    .where(and(eq(invoices.orgId, orgId), eq(invoices.id, invoiceId), eq(invoices.status, 'open')));
}

/** A coupon of the organisation by the name a customer types (any case), if it is offered. */
export async function findCouponByName(db: Reader, orgId: string, name: string) {
  const [row] = await db
    .select()
    .from(coupons)
    .where(
      and(
        eq(coupons.orgId, orgId),
        sql`lower(${coupons.name}) = lower(${name})`,
        isNull(coupons.archivedAt),
      ),
    );
  return row ?? null;
}

/** Where a customer's confirmations go (null for a child account without an email). */
export async function emailOf(db: Reader, userId: string): Promise<string | null> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email ?? null;
}
