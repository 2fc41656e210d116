import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { productMessages } from '@platform/schema/payments/products.zod';
import { sandboxProcessor } from '../adapters/payments/sandbox.ts';
import type { Db } from '../db/open-database.ts';
import { NotFound, RuleBroken } from '../plugins/domain-errors.ts';
import { insertTestOrg, insertTestUser } from '../testing/auth-fixtures.ts';
import { createTestDatabase, testDatabaseKinds } from '../testing/test-database.ts';
import {
  archiveCoupon,
  archiveProduct,
  catalogueMessages,
  createCoupon,
  createProduct,
  listCoupons,
  listProducts,
  updateProduct,
} from './catalogue.service.ts';

describe.each(testDatabaseKinds)('the catalogue on %s', (kind) => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const database = await createTestDatabase(kind);
    db = database.db;
    close = database.close;
  });
  afterAll(() => close());

  const monthly = { name: 'Unlimited', type: 'recurring', schedule: 'month', priceMinor: 9_900 };

  it('creates a product at the processor too, changes it, archives it — within its organisation', async () => {
    const org = await insertTestOrg(db);
    const other = await insertTestOrg(db);
    const staff = await insertTestUser(db);
    const actor = { orgId: org.id, userId: staff.id };
    const processor = sandboxProcessor(db);
    const product = await createProduct(db, processor, actor, monthly);
    expect(product.processorProductId).toMatch(/^prod_sandbox_/);
    expect(product).toMatchObject({ orgId: org.id, priceMinor: 9_900, state: 'available' });

    const changed = await updateProduct(db, actor, product.id, { ...monthly, priceMinor: 10_500 });
    expect(changed.priceMinor).toBe(10_500);
    expect((await listProducts(db, actor)).map((p) => p.id)).toEqual([product.id]);

    // Another organisation's staff cannot see, change or archive it.
    const stranger = { orgId: other.id, userId: staff.id };
    expect(await listProducts(db, stranger)).toEqual([]);
    await expect(updateProduct(db, stranger, product.id, monthly)).rejects.toThrow(NotFound);
    await expect(archiveProduct(db, stranger, product.id)).rejects.toThrow(NotFound);

    await archiveProduct(db, actor, product.id);
    expect(await listProducts(db, actor)).toEqual([]);
    expect(await listProducts(db, actor, { archived: true })).toHaveLength(1);
  });

  it('refuses an inconsistent product with the reason', async () => {
    const org = await insertTestOrg(db);
    const actor = { orgId: org.id, userId: (await insertTestUser(db)).id };
    const refused = createProduct(db, sandboxProcessor(db), actor, {
      ...monthly,
      schedule: 'one-time',
    });
    await expect(refused).rejects.toThrow(ZodError);
    await expect(refused).rejects.toThrow(productMessages.scheduleMismatch);
  });

  it('makes coupons only for the organisation’s own products', async () => {
    const org = await insertTestOrg(db);
    const other = await insertTestOrg(db);
    const staff = await insertTestUser(db);
    const actor = { orgId: org.id, userId: staff.id };
    const mine = await createProduct(db, sandboxProcessor(db), actor, monthly);
    const theirs = await createProduct(
      db,
      sandboxProcessor(db),
      { orgId: other.id, userId: staff.id },
      monthly,
    );
    const coupon = {
      name: 'Welcome',
      type: 'percentage',
      amount: 10,
      numberOfRedemptions: 1,
      duration: { durationType: 'forever' },
    };
    const made = await createCoupon(db, actor, { ...coupon, appliesToProductIds: [mine.id] });
    expect(made).toMatchObject({
      amount: 10,
      durationType: 'forever',
      appliesToProductIds: [mine.id],
    });
    await expect(
      createCoupon(db, actor, { ...coupon, appliesToProductIds: [theirs.id] }),
    ).rejects.toThrow(RuleBroken);
    expect((await listCoupons(db, actor)).map((c) => c.id)).toEqual([made.id]);
    expect(await listCoupons(db, { orgId: other.id, userId: staff.id })).toEqual([]);
  });

  it('keeps what was bought on its terms: no billing change, no change once archived, no coupon on it', async () => {
    const org = await insertTestOrg(db);
    const actor = { orgId: org.id, userId: (await insertTestUser(db)).id };
    const product = await createProduct(db, sandboxProcessor(db), actor, monthly);
    await expect(
      updateProduct(db, actor, product.id, { ...monthly, type: 'one-time', schedule: 'one-time' }),
    ).rejects.toThrow(catalogueMessages.billingFixed);
    await expect(
      updateProduct(db, actor, product.id, { ...monthly, schedule: 'year' }),
    ).rejects.toThrow(catalogueMessages.billingFixed);
    await archiveProduct(db, actor, product.id);
    await expect(
      updateProduct(db, actor, product.id, { ...monthly, state: 'available' }),
    ).rejects.toThrow(catalogueMessages.archivedUnchangeable);
    const coupon = {
      name: 'Late',
      type: 'fixed',
      amount: 500,
      numberOfRedemptions: null,
      appliesToProductIds: [product.id],
      duration: { durationType: 'once' },
    };
    await expect(createCoupon(db, actor, coupon)).rejects.toThrow(
      catalogueMessages.couponProductsUnknown,
    );
    const made = await createCoupon(db, actor, { ...coupon, appliesToProductIds: [] });
    await archiveCoupon(db, actor, made.id);
    await expect(archiveCoupon(db, actor, made.id)).rejects.toThrow(NotFound);
  });
});
