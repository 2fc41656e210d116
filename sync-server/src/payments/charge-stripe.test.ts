import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { coupons, invoices, paymentMethods, products, subscriptions } from '@platform/schema/db';
import type { PaymentProcessor } from '../adapters/payments/port.ts';
import type { Db } from '../db/open-database.ts';
import { insertTestOrg, insertTestUser } from '../testing/auth-fixtures.ts';
import { startStripeBench } from '../testing/stripe-fixtures.ts';
import type { StripeWireServer } from '../testing/stripe-wire-server.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { stripeMessages } from '../adapters/payments/stripe.ts';
import { replaceCardOnFile } from './card-on-file.service.ts';
import { runCharge, totalCharge } from './charge.service.ts';

// 2026-11-24 15:00 UTC: the 24th in New York, the default zone of a new organisation.
const now = new Date('2026-11-24T15:00:00.000Z');

// Issue 15, decisions 0055 and 0057: Run charge with the Stripe adapter, end to end against a
// server speaking Stripe's wire format — our first charge once, then Stripe's subscription.
describe.each(testDatabaseKinds)('Run charge with Stripe on %s', (kind) => {
  let db: Db;
  let wire: StripeWireServer;
  let stripe: PaymentProcessor;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, wire, stripe, close } = await startStripeBench(kind));
  });
  afterAll(() => close());

  type CouponValues = Pick<
    typeof coupons.$inferInsert,
    'type' | 'amount' | 'durationType' | 'durationInMonths'
  >;
  async function order(token = 'pm_card_visa', options: { coupon?: CouponValues; at?: Date } = {}) {
    const org = await insertTestOrg(db);
    const staff = await insertTestUser(db);
    const customer = await insertTestUser(db);
    const productId = crypto.randomUUID();
    const processorProductId = await stripe.createProduct({
      orgId: org.id,
      productId,
      name: 'Unlimited classes',
    });
    await db.insert(products).values({
      id: productId,
      orgId: org.id,
      name: 'Unlimited classes',
      type: 'recurring',
      schedule: 'month',
      priceMinor: 9_900,
      startupFeeMinor: 2_000,
      processorProductId,
    });
    const saved = await stripe.saveCard({
      orgId: org.id,
      userId: customer.id,
      card: { kind: 'processor-payment-method', processorPaymentMethodId: token },
    });
    if (!saved.ok) throw new Error(saved.message);
    const [method] = await db
      .insert(paymentMethods)
      .values({ orgId: org.id, userId: customer.id, processor: 'stripe', ...saved.card })
      .returning();
    const [coupon] = options.coupon
      ? await db
          .insert(coupons)
          .values({ orgId: org.id, name: 'Spring offer', ...options.coupon })
          .returning()
      : [];
    const { invoiceId, totals } = await totalCharge(
      db,
      {
        orgId: org.id,
        actorUserId: staff.id,
        customerUserId: customer.id,
        productId,
        couponId: coupon?.id ?? null,
        paymentMethodId: method!.id,
        priceMinor: null,
        startDate: null,
        prorationMode: 'charge-prorated',
        issuePunchCard: false,
      },
      options.at ?? now,
    );
    return {
      org,
      customerId: customer.id,
      invoiceId,
      totals,
      processorProductId,
      card: saved.card,
      coupon,
    };
  }
  const intentsFor = (card: string) =>
    wire.created('payment_intent').filter((intent) => intent.payment_method === card);
  const subscriptionOf = async (invoiceId: string) =>
    (await db.select().from(subscriptions).where(eq(subscriptions.firstInvoiceId, invoiceId)))[0];

  it('charges the first invoice once, then has Stripe bill the renewals from our next billing date', async () => {
    const o = await order();
    expect(o.totals).toMatchObject({
      total: 11_900,
      recurringFinalAmount: 9_900,
      nextBillingDate: '2026-12-24',
    });
    const first = await runCharge(db, stripe, { orgId: o.org.id, invoiceId: o.invoiceId }, now);
    const again = await runCharge(db, stripe, { orgId: o.org.id, invoiceId: o.invoiceId }, now);
    expect(first).toMatchObject({ valid: true, recurring: true });
    expect(again).toEqual(first);

    const intents = intentsFor(o.card.processorPaymentMethodId);
    expect(intents.map((i) => [i.amount, i.currency, i.status])).toEqual([
      [11_900, 'usd', 'succeeded'],
    ]);
    const [invoice] = await db.select().from(invoices).where(eq(invoices.id, o.invoiceId));
    expect(invoice).toMatchObject({ status: 'paid', processorChargeId: intents[0]!.id });

    const subscription = await subscriptionOf(o.invoiceId);
    const remote = wire.object(subscription!.processorSubscriptionId!);
    // Stripe's first invoice is on Dec 24 (noon in New York), for the renewal price only.
    expect(remote).toMatchObject({
      object: 'subscription',
      trial_end: Date.UTC(2026, 11, 24, 17) / 1000,
      default_payment_method: o.card.processorPaymentMethodId,
    });
    const item = (remote!.items as { data: Array<{ price: Record<string, unknown> }> }).data[0]!;
    expect(item.price).toMatchObject({
      product: o.processorProductId,
      unit_amount: 9_900,
      recurring: { interval: 'month', interval_count: 1 },
    });
    const asked = wire.requests.filter(
      (r) =>
        r.path === '/v1/subscriptions' && r.idempotencyKey === `subscription:${subscription!.id}`,
    );
    expect(asked[0]?.params.proration_behavior).toBe('none');
    expect(
      wire.created('subscription').filter((s) => s.customer === remote!.customer),
    ).toHaveLength(1);
  });

  it('charges once when five requests run the same invoice at the same moment', async () => {
    const o = await order();
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map(() =>
        runCharge(db, stripe, { orgId: o.org.id, invoiceId: o.invoiceId }, now),
      ),
    );
    expect(results.filter((r) => r.valid)).not.toHaveLength(0);
    // Every request that was not answered "paid" was told the charge is in progress.
    for (const r of results) if (!r.valid) expect(r.inProgress).toBe(true);
    expect(intentsFor(o.card.processorPaymentMethodId)).toHaveLength(1);
    await runCharge(db, stripe, { orgId: o.org.id, invoiceId: o.invoiceId }, now);
    const subscription = await subscriptionOf(o.invoiceId);
    expect(subscription?.processorSubscriptionId).toMatch(/^sub_/);
    expect(
      wire.created('subscription').filter((s) => s.id === subscription!.processorSubscriptionId),
    ).toHaveLength(1);
  });

  it('charges once across an answer lost on the way back', async () => {
    const o = await order();
    // The PaymentIntent is made and its answer lost, on the SDK's own retries too.
    wire.failNext('drop', 'drop', 'drop');
    await expect(
      runCharge(db, stripe, { orgId: o.org.id, invoiceId: o.invoiceId }, now),
    ).rejects.toThrow();
    expect(intentsFor(o.card.processorPaymentMethodId)).toHaveLength(1);
    // The retry asks with the same key and gets the first PaymentIntent: recorded, not repeated.
    expect(
      await runCharge(db, stripe, { orgId: o.org.id, invoiceId: o.invoiceId }, now),
    ).toMatchObject({ valid: true });
    expect(intentsFor(o.card.processorPaymentMethodId)).toHaveLength(1);
  });

  it.each(['http-500', 'drop'] as const)(
    'answers a made charge as made when starting the subscription fails (%s), and starts one on the next run',
    async (mode) => {
      const o = await order();
      // On the first try and on both of the SDK's own retries; a dropped answer means Stripe
      // made the subscription and we never heard its id.
      wire.failNextOn('/v1/subscriptions', mode, mode, mode);
      expect(
        await runCharge(db, stripe, { orgId: o.org.id, invoiceId: o.invoiceId }, now),
      ).toMatchObject({ valid: true, recurring: true });
      const ours = await subscriptionOf(o.invoiceId);
      expect(ours?.processorSubscriptionId).toBeNull();
      await runCharge(db, stripe, { orgId: o.org.id, invoiceId: o.invoiceId }, now);
      const started = (await subscriptionOf(o.invoiceId))?.processorSubscriptionId;
      expect(started).toMatch(/^sub_/);
      const customer = wire.object(started!)?.customer;
      expect(wire.created('subscription').filter((s) => s.customer === customer)).toHaveLength(1);
      expect(intentsFor(o.card.processorPaymentMethodId)).toHaveLength(1);
      const key = `subscription:${ours!.id}`;
      expect(wire.requests.filter((r) => r.idempotencyKey === key)).toHaveLength(4);
    },
  );

  it('renews with the card its customer replaced: at Stripe, then in our rows (decision 0064)', async () => {
    const o = await order();
    await runCharge(db, stripe, { orgId: o.org.id, invoiceId: o.invoiceId }, now);
    const before = await subscriptionOf(o.invoiceId);
    const buyer = { orgId: o.org.id, userId: o.customerId, actorUserId: o.customerId };
    const answer = await replaceCardOnFile({ db, processor: stripe }, buyer, {
      kind: 'processor-payment-method',
      processorPaymentMethodId: 'pm_card_mastercard',
    });
    expect(answer).toMatchObject({
      valid: true,
      subscriptions: 1,
      card: { brand: 'Mastercard', last4: '4444' },
    });
    const after = await subscriptionOf(o.invoiceId);
    const [method] = await db
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.id, after!.paymentMethodId!));
    expect(method?.processorPaymentMethodId).not.toBe(o.card.processorPaymentMethodId);
    expect(wire.object(before!.processorSubscriptionId!)).toMatchObject({
      default_payment_method: method!.processorPaymentMethodId,
    });
    // A typed number never reaches Stripe's side: refused, and nothing changes.
    const refused = await replaceCardOnFile({ db, processor: stripe }, buyer, {
      kind: 'card-number',
      number: '4242424242424242',
      expMonth: 12,
      expYear: 2040,
      cvc: '123',
    });
    expect(refused).toEqual({ valid: false, message: stripeMessages.numberRefused });
    expect((await subscriptionOf(o.invoiceId))?.paymentMethodId).toBe(method!.id);
  });

  /** The Stripe subscription of our order, its one price, and the coupons of its discounts. */
  async function remoteOf(invoiceId: string) {
    const remote = wire.object((await subscriptionOf(invoiceId))!.processorSubscriptionId!)!;
    const [item] = (remote.items as { data: Array<{ price: Record<string, unknown> }> }).data;
    const discounts = (remote.discounts as string[]).map((id) => wire.object(id)!);
    return {
      price: item!.price,
      coupons: discounts.map((d) => d.coupon as Record<string, unknown>),
    };
  }

  it.each([
    [
      'forever: every renewal, so the coupon for ever',
      { type: 'percentage', amount: 10, durationType: 'forever', durationInMonths: null } as const,
      now,
      [{ duration: 'forever', duration_in_months: null, percent_off: 10 }],
    ],
    [
      'repeating 3 months, bought at 10 am: Stripe’s 3 months end before the Feb 24 renewal',
      { type: 'percentage', amount: 25, durationType: 'repeating', durationInMonths: 3 } as const,
      now,
      [{ duration: 'repeating', duration_in_months: 3, percent_off: 25 }],
    ],
    [
      'repeating 3 months, bought at 2 pm: 3 months would reach the Feb 24 renewal, 2 do not',
      { type: 'fixed', amount: 1_500, durationType: 'repeating', durationInMonths: 3 } as const,
      new Date('2026-11-24T19:00:00.000Z'),
      [{ duration: 'repeating', duration_in_months: 2, amount_off: 1_500, currency: 'usd' }],
    ],
    [
      'once: used by our first charge, so none at Stripe',
      { type: 'percentage', amount: 50, durationType: 'once', durationInMonths: null } as const,
      now,
      [],
    ],
  ])(
    'has Stripe bill the renewals at the full price with our coupon for as long as it lasts — %s',
    async (_name, coupon, at, expected) => {
      const o = await order('pm_card_visa', { coupon, at });
      expect(
        await runCharge(db, stripe, { orgId: o.org.id, invoiceId: o.invoiceId }, at),
      ).toMatchObject({ valid: true });
      const remote = await remoteOf(o.invoiceId);
      // The price before the coupon: not the first renewal's discounted figure.
      expect(remote.price).toMatchObject({ unit_amount: 9_900 });
      expect(remote.coupons).toEqual(expected.map((terms) => expect.objectContaining(terms)));
    },
  );

  it('leaves a declined card’s order open, with no subscription at Stripe', async () => {
    const o = await order('pm_card_chargeDeclined');
    expect(
      await runCharge(db, stripe, { orgId: o.org.id, invoiceId: o.invoiceId }, now),
    ).toMatchObject({
      valid: false,
      message: 'Your card was declined.',
    });
    expect(await subscriptionOf(o.invoiceId)).toBeUndefined();
    const [invoice] = await db.select().from(invoices).where(eq(invoices.id, o.invoiceId));
    expect(invoice).toMatchObject({ status: 'open', attempt: 2 });
  });
});
