import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { addMonths } from '@platform/schema/payments/billing-calendar';
import { sandboxProcessor } from '../adapters/payments/sandbox.ts';
import {
  losingAnswers,
  noonOf,
  queuedJobs,
  renewalCharges,
  renewalInvoices,
  subscribeWithSandbox,
  subscriptionRow,
} from '../testing/renewal-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { CHARGING_LEASE_MS } from './charge.service.ts';
import { renewSubscription } from './renewal.service.ts';

// Issue 15, decision 0060: the sandbox renews what it bills — each renewal charged once, with
// the coupon kept on the subscription, on the billing date in the organisation's calendar.
describe.each(testDatabaseKinds)('sandbox renewals on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  // Jobs are stored, not run: what a renewal queues is read from the queue.
  beforeAll(async () => {
    t = await createTestApp(kind, { jobs: { work: false } });
  });
  afterAll(() => t.close());

  type Subscribed = Awaited<ReturnType<typeof subscribeWithSandbox>>;
  const renew = (s: Subscribed, now: Date, processor = sandboxProcessor(t.db)) =>
    renewSubscription(
      { db: t.db, processor, jobs: t.app.jobs },
      { orgId: s.org.id, subscriptionId: s.subscriptionId },
      now,
    );
  const renewedTotals = async (s: Subscribed) =>
    (await renewalInvoices(t.db, s.subscriptionId)).map((i) => [
      i.periodStart,
      i.totalMinor,
      i.status,
    ]);

  it('renews on the billing date in the organisation’s calendar, once: the invoice, the next period, the receipt', async () => {
    const s = await subscribeWithSandbox(t.db, { boughtOn: '2026-11-24' });
    expect(await subscriptionRow(t.db, s.subscriptionId)).toMatchObject({
      status: 'active',
      nextBillingDate: '2026-12-24',
    });
    // 11 pm on Dec 23 in New York, already the 24th in UTC: not yet.
    expect(await renew(s, new Date('2026-12-24T04:00:00Z'))).toBe('not-due');
    expect(await renew(s, new Date('2026-12-24T05:30:00Z'))).toBe('paid');
    expect(await renew(s, noonOf('2026-12-24'))).toBe('not-due');

    const [renewal, ...more] = await renewalInvoices(t.db, s.subscriptionId);
    expect(more).toEqual([]);
    expect(renewal).toMatchObject({
      status: 'paid',
      periodStart: '2026-12-24',
      customerUserId: s.customer.id,
      productName: 'Unlimited classes',
      totalMinor: 9_900,
      paymentMethodId: s.card.id,
      processorChargeId: expect.stringMatching(/^ch_sandbox_/),
      paidAt: new Date('2026-12-24T05:30:00Z'),
      totals: {
        total: 9_900,
        subtotal: 9_900,
        couponDiscount: 0,
        recurringFinalAmount: 9_900,
        nextBillingDate: '2027-01-24',
        lineItems: [
          {
            type: 'subscription',
            description: 'Unlimited classes — Dec 24, 2026 to Jan 24, 2027',
            originalAmount: 9_900,
            finalAmount: 9_900,
          },
        ],
      },
    });
    expect(await subscriptionRow(t.db, s.subscriptionId)).toMatchObject({
      status: 'active',
      nextBillingDate: '2027-01-24',
      renewalRetryAt: null,
    });
    expect(await renewalCharges(t.db, s.subscriptionId)).toEqual([
      ['2026-12-24:1', 9_900, 'succeeded'],
    ]);
    expect(await queuedJobs(t.database, 'payment-receipt', 'invoiceId', renewal!.id)).toEqual([
      { orgId: s.org.id, invoiceId: renewal!.id },
    ]);
  });

  it('renews once when two runs race, round after round', async () => {
    const s = await subscribeWithSandbox(t.db, { boughtOn: '2026-11-24' });
    const rounds = kind === 'postgres' ? 50 : 5;
    for (let round = 0; round < rounds; round++) {
      const due = addMonths('2026-12-24', round);
      const outcomes = await Promise.all([renew(s, noonOf(due)), renew(s, noonOf(due))]);
      expect(
        outcomes.filter((o) => o === 'paid'),
        `round ${round}: ${outcomes}`,
      ).toHaveLength(1);
      for (const o of outcomes) expect(['paid', 'in-progress', 'not-due']).toContain(o);
    }
    const charges = await renewalCharges(t.db, s.subscriptionId);
    expect(charges).toHaveLength(rounds);
    expect(new Set(charges.map(([key]) => key)).size).toBe(rounds);
    expect(charges.every(([key, amount]) => String(key).endsWith(':1') && amount === 9_900)).toBe(
      true,
    );
    const invoices = await renewalInvoices(t.db, s.subscriptionId);
    expect(invoices.filter((i) => i.status === 'paid')).toHaveLength(rounds);
    expect((await subscriptionRow(t.db, s.subscriptionId)).nextBillingDate).toBe(
      addMonths('2026-12-24', rounds),
    );
  });

  it('charges once when the write after the charge fails: the retry records the first charge', async () => {
    const s = await subscribeWithSandbox(t.db, { boughtOn: '2026-11-24' });
    const at = noonOf('2026-12-24');
    // The database refuses the write of the outcome, after the sandbox charged.
    await t.db.execute(
      sql`alter table invoices add constraint renewal_write_fails check (status <> 'paid' or period_start is null) not valid`,
    );
    try {
      await expect(renew(s, at)).rejects.toThrow();
    } finally {
      await t.db.execute(sql`alter table invoices drop constraint renewal_write_fails`);
    }
    expect(await renewalCharges(t.db, s.subscriptionId)).toEqual([
      ['2026-12-24:1', 9_900, 'succeeded'],
    ]);
    // Within its lease the first run may still be writing: nobody charges meanwhile.
    expect(await renew(s, new Date(at.getTime() + 1_000))).toBe('in-progress');
    // After it, the retry asks with the same key, and the sandbox answers the first charge.
    expect(await renew(s, new Date(at.getTime() + CHARGING_LEASE_MS + 1_000))).toBe('paid');
    expect(await renewalCharges(t.db, s.subscriptionId)).toEqual([
      ['2026-12-24:1', 9_900, 'succeeded'],
    ]);
    expect(await renewedTotals(s)).toEqual([['2026-12-24', 9_900, 'paid']]);
    expect((await subscriptionRow(t.db, s.subscriptionId)).nextBillingDate).toBe('2027-01-24');
  });

  it('charges once when the answer is lost: the retry asks again with the same key', async () => {
    const s = await subscribeWithSandbox(t.db, { boughtOn: '2026-11-24' });
    const at = noonOf('2026-12-24');
    await expect(renew(s, at, losingAnswers(sandboxProcessor(t.db), 1))).rejects.toThrow('dropped');
    expect(await renewalInvoices(t.db, s.subscriptionId)).toEqual([
      expect.objectContaining({ status: 'open', attempt: 1, paymentMethodId: s.card.id }),
    ]);
    // A card added meanwhile changes nothing: the question asked is asked again as it was.
    await s.replaceCard('5555 5555 5555 4444');
    expect(await renew(s, at)).toBe('paid');
    expect(await renewalCharges(t.db, s.subscriptionId)).toEqual([
      ['2026-12-24:1', 9_900, 'succeeded'],
    ]);
    expect(await renewalInvoices(t.db, s.subscriptionId)).toEqual([
      expect.objectContaining({ status: 'paid', paymentMethodId: s.card.id }),
    ]);
  });

  it.each([
    [
      'repeating 3 months: discounted until the period that starts 3 months after the purchase',
      { type: 'percentage', amount: 25, durationType: 'repeating', durationInMonths: 3 } as const,
      [7_425, 7_425, 9_900, 9_900],
    ],
    [
      'once: used by the purchase, every renewal at the full price',
      { type: 'percentage', amount: 25, durationType: 'once', durationInMonths: null } as const,
      [9_900, 9_900, 9_900, 9_900],
    ],
    [
      'forever: every renewal',
      { type: 'fixed', amount: 1_500, durationType: 'forever', durationInMonths: null } as const,
      [8_400, 8_400, 8_400, 8_400],
    ],
  ])(
    'applies the coupon kept on the subscription by its duration — %s',
    async (_name, coupon, amounts) => {
      const s = await subscribeWithSandbox(t.db, { boughtOn: '2026-11-24', coupon });
      const dates = [0, 1, 2, 3].map((k) => addMonths('2026-12-24', k));
      for (const day of dates) expect(await renew(s, noonOf(day))).toBe('paid');
      expect(await renewedTotals(s)).toEqual(dates.map((day, k) => [day, amounts[k], 'paid']));
      expect((await renewalCharges(t.db, s.subscriptionId)).map(([, amount]) => amount)).toEqual(
        amounts,
      );
    },
  );

  it('charges a delayed start on its start date, with a once coupon there, and counts from it', async () => {
    const s = await subscribeWithSandbox(t.db, {
      boughtOn: '2026-11-24',
      startDate: '2026-12-01',
      coupon: { type: 'percentage', amount: 10, durationType: 'once', durationInMonths: null },
    });
    expect(await subscriptionRow(t.db, s.subscriptionId)).toMatchObject({
      status: 'scheduled',
      nextBillingDate: '2026-12-01',
    });
    expect(await renew(s, noonOf('2026-11-30'))).toBe('not-due');
    expect(await renew(s, noonOf('2026-12-01'))).toBe('paid');
    expect(await subscriptionRow(t.db, s.subscriptionId)).toMatchObject({
      status: 'active',
      nextBillingDate: '2027-01-01',
    });
    expect(await renew(s, noonOf('2027-01-01'))).toBe('paid');
    expect(await renewedTotals(s)).toEqual([
      ['2026-12-01', 8_910, 'paid'],
      ['2027-01-01', 9_900, 'paid'],
    ]);
  });
});
