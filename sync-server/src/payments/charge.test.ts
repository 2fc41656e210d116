import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  coupons,
  invoices,
  paymentMethods,
  products,
  sandboxCharges,
  subscriptions,
} from '@platform/schema/db';
import { chargeFlowMessages } from '@platform/schema/payments/charge-flow.rules';
import type { PaymentProcessor } from '../adapters/payments/port.ts';
import { sandboxProcessor } from '../adapters/payments/sandbox.ts';
import { sandboxMessages } from '../adapters/payments/sandbox-cards.ts';
import type { Db } from '../db/open-database.ts';
import { insertTestOrg, insertTestUser } from '../testing/auth-fixtures.ts';
import { createTestDatabase, testDatabaseKinds } from '../testing/test-database.ts';
import { chargeMessages, runCharge, totalCharge, type TotalRequest } from './charge.service.ts';

// 2026-11-24 15:00 UTC: the 24th in New York, the default zone of a new organisation.
const now = new Date('2026-11-24T15:00:00.000Z');

async function fixture(db: Db) {
  const org = await insertTestOrg(db);
  const staff = await insertTestUser(db);
  const customer = await insertTestUser(db);
  const processor = sandboxProcessor(db, () => now);
  const [monthly] = await db
    .insert(products)
    .values({
      orgId: org.id,
      name: 'Unlimited classes',
      type: 'recurring',
      schedule: 'month',
      priceMinor: 9_900,
      startupFeeMinor: 2_000,
      processorProductId: 'prod_sandbox_1',
    })
    .returning();
  const card = async (number: string) => {
    const saved = await processor.saveCard({
      orgId: org.id,
      userId: customer.id,
      card: { kind: 'card-number', number, expMonth: 12, expYear: 2030, cvc: '123' },
    });
    if (!saved.ok) throw new Error(saved.message);
    const [row] = await db
      .insert(paymentMethods)
      .values({ orgId: org.id, userId: customer.id, processor: 'sandbox', ...saved.card })
      .returning();
    return row!.id;
  };
  const request = (over: Partial<TotalRequest> = {}): TotalRequest => ({
    orgId: org.id,
    actorUserId: staff.id,
    customerUserId: customer.id,
    productId: monthly!.id,
    couponId: null,
    paymentMethodId: null,
    priceMinor: null,
    startDate: null,
    prorationMode: 'charge-prorated',
    issuePunchCard: false,
    ...over,
  });
  return { org, customer, processor, product: monthly!, card, request };
}

/** A processor that charges, then loses its first answer on the way back. */
function losingFirstAnswer(processor: PaymentProcessor): PaymentProcessor {
  let lose = true;
  return {
    ...processor,
    charge: async (request) => {
      const outcome = await processor.charge(request);
      if (lose) {
        lose = false;
        throw new Error('socket hang up');
      }
      return outcome;
    },
  };
}

describe.each(testDatabaseKinds)('the charge flow on %s', (kind) => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const database = await createTestDatabase(kind);
    db = database.db;
    close = database.close;
  });
  afterAll(() => close());

  it('totals, charges once with the succeeding card, and starts the subscription', async () => {
    const f = await fixture(db);
    const paymentMethodId = await f.card('4242 4242 4242 4242');
    const { invoiceId, totals } = await totalCharge(db, f.request({ paymentMethodId }), now);
    expect(totals).toMatchObject({ total: 11_900, nextBillingDate: '2026-12-24' });

    const result = await runCharge(db, f.processor, { orgId: f.org.id, invoiceId }, now);
    expect(result).toMatchObject({ valid: true, recurring: true });
    const charges = await db
      .select()
      .from(sandboxCharges)
      .where(eq(sandboxCharges.idempotencyKey, `${invoiceId}:1`));
    expect(charges.map((c) => [c.amountMinor, c.outcome])).toEqual([[11_900, 'succeeded']]);
    const [subscription] = await db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.firstInvoiceId, invoiceId));
    expect(subscription).toMatchObject({ status: 'active', nextBillingDate: '2026-12-24' });

    // Asked again (a retry after a timeout): the same answer, no second charge.
    expect(await runCharge(db, f.processor, { orgId: f.org.id, invoiceId }, now)).toEqual(result);
    expect(
      await db.select().from(sandboxCharges).where(eq(sandboxCharges.orgId, f.org.id)),
    ).toHaveLength(1);
  });

  it('keeps a declined charge on the order summary, and charges the next card under a new key', async () => {
    const f = await fixture(db);
    const declined = await f.card('4000 0000 0000 0002');
    const { invoiceId } = await totalCharge(db, f.request({ paymentMethodId: declined }), now);
    expect(await runCharge(db, f.processor, { orgId: f.org.id, invoiceId }, now)).toEqual({
      valid: false,
      invoiceId,
      message: sandboxMessages.declined,
    });
    const [open] = await db.select().from(invoices).where(eq(invoices.id, invoiceId));
    expect(open).toMatchObject({
      status: 'open',
      attempt: 2,
      failureMessage: sandboxMessages.declined,
    });

    const good = await f.card('4242424242424242');
    await db.update(invoices).set({ paymentMethodId: good }).where(eq(invoices.id, invoiceId));
    expect(await runCharge(db, f.processor, { orgId: f.org.id, invoiceId }, now)).toMatchObject({
      valid: true,
    });
    const keys = (await db.select().from(sandboxCharges).where(eq(sandboxCharges.orgId, f.org.id)))
      .map((c) => [c.idempotencyKey, c.outcome])
      .sort();
    expect(keys).toEqual([
      [`${invoiceId}:1`, 'declined'],
      [`${invoiceId}:2`, 'succeeded'],
    ]);
  });

  it('starts a delayed subscription without charging, no start-up fee', async () => {
    const f = await fixture(db);
    const { invoiceId, totals } = await totalCharge(
      db,
      f.request({ paymentMethodId: await f.card('4242424242424242'), startDate: '2026-12-01' }),
      now,
    );
    expect(totals.total).toBe(0);
    expect(await runCharge(db, f.processor, { orgId: f.org.id, invoiceId }, now)).toMatchObject({
      valid: true,
    });
    expect(
      await db.select().from(sandboxCharges).where(eq(sandboxCharges.orgId, f.org.id)),
    ).toEqual([]);
    const [subscription] = await db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.firstInvoiceId, invoiceId));
    expect(subscription).toMatchObject({ status: 'scheduled', startedOn: '2026-12-01' });
  });

  it('refuses what the spec refuses: a start too far ahead, an unknown card, another org’s product', async () => {
    const f = await fixture(db);
    await expect(totalCharge(db, f.request({ startDate: '2027-01-30' }), now)).rejects.toThrow(
      chargeFlowMessages.startTooLate(30),
    );
    await expect(
      totalCharge(db, f.request({ paymentMethodId: '0b6f4f2e-5a3a-4c55-9d1e-3f1d2c3b4a51' }), now),
    ).rejects.toThrow(chargeMessages.paymentMethodUnknown);
    const other = await fixture(db);
    await expect(totalCharge(db, f.request({ productId: other.product.id }), now)).rejects.toThrow(
      chargeMessages.productUnavailable,
    );
  });

  it('shows changed figures instead of charging them when the product changed in between', async () => {
    const f = await fixture(db);
    const { invoiceId } = await totalCharge(
      db,
      f.request({ paymentMethodId: await f.card('4242424242424242') }),
      now,
    );
    await db.update(products).set({ startupFeeMinor: 0 }).where(eq(products.id, f.product.id));
    const result = await runCharge(db, f.processor, { orgId: f.org.id, invoiceId }, now);
    expect(result).toMatchObject({ valid: false, message: chargeMessages.totalsChanged });
    expect(result.valid === false && result.totals?.total).toBe(9_900);
    expect(
      await db.select().from(sandboxCharges).where(eq(sandboxCharges.orgId, f.org.id)),
    ).toEqual([]);
    // Run again, now with the figures the customer saw: charged.
    expect(await runCharge(db, f.processor, { orgId: f.org.id, invoiceId }, now)).toMatchObject({
      valid: true,
    });
  });

  it('gives a coupon’s last redemption to one charge only, and gives it back when a card is declined', async () => {
    const f = await fixture(db);
    const [coupon] = await db
      .insert(coupons)
      .values({
        orgId: f.org.id,
        name: 'Welcome',
        type: 'percentage',
        amount: 10,
        numberOfRedemptions: 1,
        durationType: 'once',
      })
      .returning();
    const declined = await f.card('4000000000000002');
    const good = await f.card('4242424242424242');
    const first = await totalCharge(
      db,
      f.request({ couponId: coupon!.id, paymentMethodId: declined }),
      now,
    );
    expect(first.totals.couponDiscount).toBe(990);
    expect(
      await runCharge(db, f.processor, { orgId: f.org.id, invoiceId: first.invoiceId }, now),
    ).toMatchObject({
      valid: false,
    });
    const redeemed = async () =>
      (await db.select().from(coupons).where(eq(coupons.id, coupon!.id)))[0]?.timesRedeemed;
    expect(await redeemed()).toBe(0);

    const second = await totalCharge(
      db,
      f.request({ couponId: coupon!.id, paymentMethodId: good }),
      now,
    );
    const third = await totalCharge(
      db,
      f.request({ couponId: coupon!.id, paymentMethodId: good }),
      now,
    );
    expect(
      await runCharge(db, f.processor, { orgId: f.org.id, invoiceId: second.invoiceId }, now),
    ).toMatchObject({
      valid: true,
    });
    await expect(
      runCharge(db, f.processor, { orgId: f.org.id, invoiceId: third.invoiceId }, now),
    ).rejects.toThrow(chargeMessages.couponUsedUp);
    expect(await redeemed()).toBe(1);
  });

  it('asks the processor the same question again after an outcome it never heard', async () => {
    const f = await fixture(db);
    const { invoiceId } = await totalCharge(
      db,
      f.request({ paymentMethodId: await f.card('4242424242424242') }),
      now,
    );
    // The processor charges, then the answer is lost on the way back.
    const flaky = losingFirstAnswer(f.processor);
    await expect(runCharge(db, flaky, { orgId: f.org.id, invoiceId }, now)).rejects.toThrow(
      'socket hang up',
    );
    expect(await runCharge(db, flaky, { orgId: f.org.id, invoiceId }, now)).toMatchObject({
      valid: true,
    });
    const charges = await db
      .select()
      .from(sandboxCharges)
      .where(eq(sandboxCharges.orgId, f.org.id));
    expect(charges.map((c) => c.idempotencyKey)).toEqual([`${invoiceId}:1`]);
  });

  it('asks an unanswered attempt again as it was, even when the price changed meanwhile', async () => {
    const f = await fixture(db);
    const { invoiceId } = await totalCharge(
      db,
      f.request({ paymentMethodId: await f.card('4242424242424242') }),
      now,
    );
    const flaky = losingFirstAnswer(f.processor);
    await expect(runCharge(db, flaky, { orgId: f.org.id, invoiceId }, now)).rejects.toThrow();
    // Staff change the price before the retry: the money may already have moved at the old one.
    await db.update(products).set({ priceMinor: 12_900 }).where(eq(products.id, f.product.id));
    const retried = await runCharge(db, flaky, { orgId: f.org.id, invoiceId }, now);
    expect(retried).toMatchObject({ valid: true });
    const charges = await db
      .select()
      .from(sandboxCharges)
      .where(eq(sandboxCharges.orgId, f.org.id));
    expect(charges.map((c) => [c.idempotencyKey, c.amountMinor])).toEqual([
      [`${invoiceId}:1`, 11_900],
    ]);
    const [paid] = await db.select().from(invoices).where(eq(invoices.id, invoiceId));
    expect(paid).toMatchObject({ status: 'paid', totalMinor: 11_900, chargingSince: null });
  });
});

describe.runIf(testDatabaseKinds.includes('postgres'))('charging races on PostgreSQL', () => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const database = await createTestDatabase('postgres', { maxConnections: 10 });
    db = database.db;
    close = database.close;
  });
  afterAll(() => close());

  it('charges an invoice once when five requests run it at the same moment, 200 rounds', async () => {
    const f = await fixture(db);
    const paymentMethodId = await f.card('4242424242424242');
    for (let round = 0; round < 200; round++) {
      const { invoiceId } = await totalCharge(db, f.request({ paymentMethodId }), now);
      const results = await Promise.all(
        Array.from({ length: 5 }, () =>
          runCharge(db, f.processor, { orgId: f.org.id, invoiceId }, now),
        ),
      );
      // Each answer is the charge's success or "in progress" — never a second charge.
      for (const result of results) {
        expect(result.valid || (result.valid === false && result.inProgress)).toBe(true);
      }
      const [charged, subs] = await Promise.all([
        db
          .select()
          .from(sandboxCharges)
          .where(eq(sandboxCharges.idempotencyKey, `${invoiceId}:1`)),
        db
          .select()
          .from(subscriptions)
          .where(and(eq(subscriptions.firstInvoiceId, invoiceId))),
      ]);
      expect(charged, `round ${round}`).toHaveLength(1);
      expect(subs, `round ${round}`).toHaveLength(1);
    }
    const all = await db.select().from(sandboxCharges).where(eq(sandboxCharges.orgId, f.org.id));
    expect(all).toHaveLength(200);
  }, 120_000);
});
