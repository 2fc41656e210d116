import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { products, punchCardCredits } from '@platform/schema/db';
import { sandboxProcessor } from '../adapters/payments/sandbox.ts';
import type { Db } from '../db/open-database.ts';
import { insertTestOrg, insertTestUser } from '../testing/auth-fixtures.ts';
import { saveTestCard } from '../testing/payment-fixtures.ts';
import { createTestDatabase, testDatabaseKinds } from '../testing/test-database.ts';
import { runCharge, totalCharge, type TotalRequest } from './charge.service.ts';
import { creditBalancesOf, useCredits } from './credits.service.ts';

const now = new Date('2026-11-24T15:00:00.000Z');
const classes = { id: crypto.randomUUID(), name: 'Classes', credits: 10 };
const openGym = { id: crypto.randomUUID(), name: 'Open gym', credits: 2 };

async function fixture(db: Db) {
  const org = await insertTestOrg(db);
  const staff = await insertTestUser(db);
  const customer = await insertTestUser(db);
  const processor = sandboxProcessor(db, () => now);
  const insertProduct = async (values: Partial<typeof products.$inferInsert>) => {
    const [row] = await db
      .insert(products)
      .values({
        orgId: org.id,
        name: '10-class pack',
        type: 'one-time',
        schedule: 'one-time',
        priceMinor: 15_000,
        processorProductId: 'prod_sandbox_pack',
        punchCardConfiguration: { groups: [classes, openGym] },
        ...values,
      })
      .returning();
    return row!;
  };
  const pack = await insertProduct({});
  const methodId = await saveTestCard(db, { orgId: org.id, userId: customer.id });
  const request = (over: Partial<TotalRequest> = {}): TotalRequest => ({
    orgId: org.id,
    actorUserId: staff.id,
    customerUserId: customer.id,
    productId: pack.id,
    couponId: null,
    paymentMethodId: methodId,
    priceMinor: null,
    startDate: null,
    prorationMode: 'charge-prorated',
    issuePunchCard: true,
    ...over,
  });
  const buy = async (over: Partial<TotalRequest> = {}) => {
    const { invoiceId } = await totalCharge(db, request(over), now);
    const result = await runCharge(db, processor, { orgId: org.id, invoiceId }, now);
    expect(result.valid).toBe(true);
    return invoiceId;
  };
  const balances = () => creditBalancesOf(db, org.id, customer.id);
  return { org, staff, customer, processor, pack, insertProduct, request, buy, balances };
}

describe.each(testDatabaseKinds)('punch-card credits on %s', (kind) => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const database = await createTestDatabase(kind);
    db = database.db;
    close = database.close;
  });
  afterAll(() => close());

  it('gives each group its credits when a punch card is paid, once however often it is run', async () => {
    const f = await fixture(db);
    const invoiceId = await f.buy();
    // A retried Run charge of the same invoice gives nothing more.
    await runCharge(db, f.processor, { orgId: f.org.id, invoiceId }, now);
    expect(await f.balances()).toEqual([
      expect.objectContaining({ groupName: 'Classes', balance: 10, given: 10 }),
      expect.objectContaining({ groupName: 'Open gym', balance: 2, given: 2 }),
    ]);
    // A second pack adds to the balance.
    await f.buy();
    expect((await f.balances()).map((b) => b.balance)).toEqual([20, 4]);
  });

  it('gives nothing when the sale did not ask, for a recurring product, or without groups', async () => {
    const f = await fixture(db);
    await f.buy({ issuePunchCard: false });
    const monthly = await f.insertProduct({
      name: 'Monthly',
      type: 'recurring',
      schedule: 'month',
      priceMinor: 9_900,
    });
    await f.buy({ productId: monthly.id });
    const plain = await f.insertProduct({
      name: 'Drop-in',
      punchCardConfiguration: { groups: [] },
    });
    await f.buy({ productId: plain.id });
    expect(await f.balances()).toEqual([]);
  });

  it('gives nothing for a declined card until the invoice is paid', async () => {
    const f = await fixture(db);
    const declining = await saveTestCard(
      db,
      { orgId: f.org.id, userId: f.customer.id },
      '4000 0000 0000 0002',
    );
    const { invoiceId } = await totalCharge(db, f.request({ paymentMethodId: declining }), now);
    const result = await runCharge(db, f.processor, { orgId: f.org.id, invoiceId }, now);
    expect(result.valid).toBe(false);
    expect(await f.balances()).toEqual([]);
  });

  it('takes a credit only while the balance holds one', async () => {
    const f = await fixture(db);
    await f.buy();
    const take = (count: number) =>
      db.transaction((tx) =>
        useCredits(tx, {
          orgId: f.org.id,
          customerUserId: f.customer.id,
          groupId: openGym.id,
          count,
          reference: crypto.randomUUID(),
          actorUserId: f.customer.id,
        }),
      );
    expect(await take(3)).toEqual({ ok: false, balance: 2 });
    expect(await take(1)).toMatchObject({ ok: true, balance: 1 });
    expect(await take(1)).toMatchObject({ ok: true, balance: 0 });
    expect(await take(1)).toEqual({ ok: false, balance: 0 });
    // Another organisation's group of the same id holds nothing for this person.
    const other = await insertTestOrg(db);
    const elsewhere = await db.transaction((tx) =>
      useCredits(tx, {
        orgId: other.id,
        customerUserId: f.customer.id,
        groupId: classes.id,
        count: 1,
        reference: 'x',
        actorUserId: null,
      }),
    );
    expect(elsewhere).toEqual({ ok: false, balance: 0 });
  });

  it.runIf(kind === 'postgres')(
    'never lets racing bookings take more credits than were given (200 rounds)',
    async () => {
      const f = await fixture(db);
      await f.buy();
      // Every round: three bookings race for the Open gym group's two credits.
      for (let round = 0; round < 200; round++) {
        const results = await Promise.all(
          [0, 1, 2].map(() =>
            db.transaction((tx) =>
              useCredits(tx, {
                orgId: f.org.id,
                customerUserId: f.customer.id,
                groupId: openGym.id,
                count: 1,
                reference: `round-${round}`,
                actorUserId: null,
              }),
            ),
          ),
        );
        // Two credits, three bookings: two are taken, one refused, the balance ends at zero.
        expect(results.filter((r) => r.ok)).toHaveLength(2);
        const balance = (await f.balances()).find((b) => b.groupId === openGym.id)?.balance;
        expect(balance).toBe(0);
        if (round === 199) break;
        await db.insert(punchCardCredits).values({
          orgId: f.org.id,
          customerUserId: f.customer.id,
          productId: f.pack.id,
          productName: f.pack.name,
          groupId: openGym.id,
          groupName: openGym.name,
          delta: 2,
          reason: 'adjustment',
        });
      }
      const rows = await db
        .select()
        .from(punchCardCredits)
        .where(eq(punchCardCredits.customerUserId, f.customer.id));
      const used = rows.filter((r) => r.reason === 'booking').length;
      const given = rows.filter((r) => r.delta > 0 && r.groupId === openGym.id);
      expect(used).toBe(given.reduce((sum, r) => sum + r.delta, 0));
    },
    120_000,
  );
});
