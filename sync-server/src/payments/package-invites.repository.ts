import { and, desc, eq, inArray } from 'drizzle-orm';
import { coupons, organizations, productInvites, products } from '@platform/schema/db';
import type { Db, Tx } from '../db/open-database.ts';

type Reader = Db | Tx;
export type ProductInviteRow = typeof productInvites.$inferSelect;

export async function insertInvite(db: Reader, values: typeof productInvites.$inferInsert) {
  const [row] = await db.insert(productInvites).values(values).returning();
  if (!row) throw new Error('invite insert returned nothing');
  return row;
}

export async function findInvite(db: Reader, inviteId: string) {
  const [row] = await db.select().from(productInvites).where(eq(productInvites.id, inviteId));
  return row ?? null;
}

/** The invitation, locked until the transaction ends: its answer is decided once. */
export async function lockInvite(tx: Tx, inviteId: string) {
  const [row] = await tx
    .select()
    .from(productInvites)
    .where(eq(productInvites.id, inviteId))
    .for('update');
  return row ?? null;
}

export async function updateInvite(
  db: Reader,
  inviteId: string,
  values: Partial<typeof productInvites.$inferInsert>,
) {
  await db.update(productInvites).set(values).where(eq(productInvites.id, inviteId));
}

/** The organisation's invitations in these states (newest first), with product and coupon names. */
export async function invitesOf(
  db: Reader,
  orgId: string,
  options: { customerUserId?: string; statuses: Array<ProductInviteRow['status']> },
) {
  return db
    .select({
      invite: productInvites,
      productName: products.name,
      productPriceMinor: products.priceMinor,
      couponName: coupons.name,
    })
    .from(productInvites)
    .innerJoin(products, eq(products.id, productInvites.productId))
    .leftJoin(coupons, eq(coupons.id, productInvites.couponId))
    .where(
      and(
        eq(productInvites.orgId, orgId),
        inArray(productInvites.status, options.statuses),
        options.customerUserId
          ? eq(productInvites.customerUserId, options.customerUserId)
          : undefined,
      ),
    )
    .orderBy(desc(productInvites.createdAt));
}

export async function orgLabel(db: Reader, orgId: string): Promise<string> {
  const [row] = await db
    .select({ label: organizations.label })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  return row?.label ?? '';
}

/** Whether an invitation holds this invoice (its order is the invitation's, paid only there). */
export async function isInvitationInvoice(db: Reader, invoiceId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: productInvites.id })
    .from(productInvites)
    .where(eq(productInvites.invoiceId, invoiceId))
    .limit(1);
  return row !== undefined;
}
