import { and, asc, eq, isNull, ne } from 'drizzle-orm';
import { coupons, products } from '@platform/schema/db';
import {
  couponInputSchema,
  productInputSchema,
  type CouponInput,
  type ProductInput,
} from '@platform/schema/payments/products.zod';
import type {
  CatalogueCoupon,
  CatalogueProduct,
  CatalogueResponse,
} from '@platform/schema/payments/catalogue.zod';
import { DEFAULT_CURRENCY } from '@platform/schema/payments/money';
import type { PaymentProcessor } from '../adapters/payments/port.ts';
import type { Db, Tx } from '../db/open-database.ts';
import { Conflict, NotFound, RuleBroken } from '../plugins/domain-errors.ts';
import { notifyChange } from '../sync/change-feed.ts';

/** Every member's device replicates the catalogue (decision 0058): tell all of them. */
const announceProducts = (tx: Tx, orgId: string) =>
  notifyChange(tx, { collection: 'products', orgId, ownerIds: [] });

/**
 * The organisation's catalogue (spec §3 Product, Coupon; issue 15): staff with
 * manage-products create, change and archive products and coupons. Creating a product also
 * creates it at the processor (its `stripeProductId`), before the row exists, so no product is
 * ever offered that the processor does not know. Every read and write is filtered by the
 * organisation the caller acts in: another organisation's ids answer 404.
 */
export type CatalogueActor = { orgId: string; userId: string };

export const catalogueMessages = {
  productNotFound: 'There is no such product.',
  couponNotFound: 'There is no such coupon.',
  couponProductsUnknown: 'A coupon can only name products this organisation offers.',
  archivedUnchangeable: 'An archived product cannot be changed.',
  billingFixed:
    'How a product is billed cannot change once it exists: archive it and create a new one.',
} as const;

export async function listProducts(
  db: Db,
  actor: CatalogueActor,
  options: { archived?: boolean } = {},
) {
  return db
    .select()
    .from(products)
    .where(
      and(
        eq(products.orgId, actor.orgId),
        options.archived ? undefined : ne(products.state, 'archived'),
      ),
    )
    .orderBy(asc(products.name), asc(products.createdAt));
}

export async function createProduct(
  db: Db,
  processor: PaymentProcessor,
  actor: CatalogueActor,
  input: unknown,
) {
  const product: ProductInput = productInputSchema.parse(input);
  const id = crypto.randomUUID();
  const processorProductId = await processor.createProduct({
    orgId: actor.orgId,
    productId: id,
    name: product.name,
  });
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(products)
      .values({ id, orgId: actor.orgId, ...product, processorProductId, updatedAt: new Date() })
      .returning();
    if (!row) throw new Error('product insert returned nothing');
    await announceProducts(tx, actor.orgId);
    return row;
  });
}

export async function updateProduct(
  db: Db,
  actor: CatalogueActor,
  productId: string,
  input: unknown,
) {
  const product: ProductInput = productInputSchema.parse(input);
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(products)
      .where(and(eq(products.orgId, actor.orgId), eq(products.id, productId)))
      .for('update');
    if (!current) throw new NotFound(catalogueMessages.productNotFound);
    if (current.state === 'archived') throw new Conflict(catalogueMessages.archivedUnchangeable);
    // What was bought keeps the terms it was bought on (subscriptions, punch cards).
    if (current.type !== product.type || current.schedule !== product.schedule) {
      throw new Conflict(catalogueMessages.billingFixed);
    }
    const [row] = await tx
      .update(products)
      .set({ ...product, updatedAt: new Date() })
      .where(eq(products.id, current.id))
      .returning();
    if (!row) throw new NotFound(catalogueMessages.productNotFound);
    await announceProducts(tx, actor.orgId);
    return row;
  });
}

/** Archived products are no longer offered; what was bought keeps its product. */
export async function archiveProduct(db: Db, actor: CatalogueActor, productId: string) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(products)
      .set({ state: 'archived', updatedAt: new Date() })
      .where(and(eq(products.orgId, actor.orgId), eq(products.id, productId)))
      .returning();
    if (!row) throw new NotFound(catalogueMessages.productNotFound);
    // Devices drop it: an archived product is a tombstone (payments.sync.ts).
    await announceProducts(tx, actor.orgId);
    return row;
  });
}

export async function listCoupons(db: Db, actor: CatalogueActor) {
  return db
    .select()
    .from(coupons)
    .where(and(eq(coupons.orgId, actor.orgId), isNull(coupons.archivedAt)))
    .orderBy(asc(coupons.name));
}

export async function createCoupon(db: Db, actor: CatalogueActor, input: unknown) {
  const coupon: CouponInput = couponInputSchema.parse(input);
  if (coupon.appliesToProductIds.length > 0) {
    const own = await db
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.orgId, actor.orgId), ne(products.state, 'archived')));
    const ownIds = new Set(own.map((row) => row.id));
    if (!coupon.appliesToProductIds.every((id) => ownIds.has(id))) {
      throw new RuleBroken(catalogueMessages.couponProductsUnknown);
    }
  }
  const [row] = await db
    .insert(coupons)
    .values({
      orgId: actor.orgId,
      name: coupon.name,
      type: coupon.type,
      amount: coupon.type === 'none' ? 0 : coupon.amount,
      numberOfRedemptions: coupon.numberOfRedemptions,
      appliesToProductIds: coupon.appliesToProductIds,
      durationType: coupon.duration.durationType,
      durationInMonths:
        coupon.duration.durationType === 'repeating' ? coupon.duration.durationInMonths : null,
    })
    .returning();
  if (!row) throw new Error('coupon insert returned nothing');
  return row;
}

export async function archiveCoupon(db: Db, actor: CatalogueActor, couponId: string) {
  const [row] = await db
    .update(coupons)
    .set({ archivedAt: new Date() })
    .where(
      and(eq(coupons.orgId, actor.orgId), eq(coupons.id, couponId), isNull(coupons.archivedAt)),
    )
    .returning();
  if (!row) throw new NotFound(catalogueMessages.couponNotFound);
  return row;
}

type ProductRow = Awaited<ReturnType<typeof listProducts>>[number];
type CouponRow = Awaited<ReturnType<typeof listCoupons>>[number];

export function productView(row: ProductRow): CatalogueProduct {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    type: row.type,
    schedule: row.schedule,
    priceMinor: row.priceMinor,
    startupFeeMinor: row.startupFeeMinor,
    state: row.state,
    variablePricing: row.variablePricing,
    unifiedBillingConfig: row.unifiedBillingConfig,
    punchCardConfiguration: row.punchCardConfiguration,
    stripeProductId: row.processorProductId,
  };
}

export function couponView(row: CouponRow): CatalogueCoupon {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    amount: row.amount,
    numberOfRedemptions: row.numberOfRedemptions,
    timesRedeemed: row.timesRedeemed,
    appliesToProductIds: row.appliesToProductIds,
    duration: { durationType: row.durationType, durationInMonths: row.durationInMonths },
  };
}

/** GET /api/catalogue: the products on offer and the coupons, for staff with manage-products. */
export async function catalogueOf(
  db: Db,
  processor: PaymentProcessor,
  actor: CatalogueActor,
): Promise<CatalogueResponse> {
  const [productRows, couponRows] = await Promise.all([
    listProducts(db, actor),
    listCoupons(db, actor),
  ]);
  return {
    products: productRows.map(productView),
    coupons: couponRows.map(couponView),
    processor: processor.kind,
    currency: DEFAULT_CURRENCY,
  };
}
