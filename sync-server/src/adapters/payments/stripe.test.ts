import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { processorCustomers } from '@platform/schema/db';
import type { Db } from '../../db/open-database.ts';
import { ServiceUnavailable } from '../../plugins/domain-errors.ts';
import { insertTestOrg, insertTestUser } from '../../testing/auth-fixtures.ts';
import { startStripeWireServer, type StripeWireServer } from '../../testing/stripe-wire-server.ts';
import { startStripeBench } from '../../testing/stripe-fixtures.ts';
import { testDatabaseKinds } from '../../testing/test-database.ts';
import { cardMessages } from './card-messages.ts';
import type { PaymentProcessor } from './port.ts';
import { sandboxProcessor } from './sandbox.ts';
import { sandboxMessages } from './sandbox-cards.ts';
import {
  createStripeClient,
  processorUnavailableMessage,
  stripeMessages,
  stripeProcessor,
  withOutagesAsUnavailable,
} from './stripe.ts';

// Issue 15, decision 0057: the Stripe adapter against a local server speaking Stripe's wire
// format (the SDK parses its answers into its own types, as it would Stripe's).
describe.each(testDatabaseKinds)('the Stripe adapter on %s', (kind) => {
  let db: Db;
  let wire: StripeWireServer;
  let stripe: PaymentProcessor;
  let close: () => Promise<void>;

  beforeAll(async () => {
    // No retries of its own: each test says what one request does.
    ({ db, wire, stripe, close } = await startStripeBench(kind, { maxNetworkRetries: 0 }));
  });
  afterAll(() => close());

  async function person() {
    const org = await insertTestOrg(db);
    const user = await insertTestUser(db);
    return { orgId: org.id, userId: user.id };
  }
  const requestsTo = (path: string) => wire.requests.filter((r) => r.path === path);

  async function savedCard(who: { orgId: string; userId: string }, token: string) {
    const saved = await stripe.saveCard({
      ...who,
      card: { kind: 'processor-payment-method', processorPaymentMethodId: token },
    });
    if (!saved.ok) throw new Error(saved.message);
    return saved.card.processorPaymentMethodId;
  }

  const charge = (who: { orgId: string; userId: string }, method: string, key: string) =>
    stripe.charge({
      ...who,
      idempotencyKey: key,
      processorPaymentMethodId: method,
      amountMinor: 11_900,
      currency: 'USD',
      description: 'Unlimited classes',
    });

  it('creates the product once per product id, with our ids in its metadata', async () => {
    const productId = crypto.randomUUID();
    const first = await stripe.createProduct({ orgId: 'org-1', productId, name: 'Unlimited' });
    const again = await stripe.createProduct({ orgId: 'org-1', productId, name: 'Unlimited' });
    expect(first).toMatch(/^prod_/);
    expect(again).toBe(first);
    const [created] = requestsTo('/v1/products').filter((r) => !r.replayed);
    expect(created).toMatchObject({
      idempotencyKey: `product:${productId}`,
      params: { name: 'Unlimited', metadata: { orgId: 'org-1', productId } },
    });
    expect(wire.created('product').filter((p) => p.id === first)).toHaveLength(1);
  });

  it('saves a card by its PaymentMethod, under one Stripe customer per person and organisation', async () => {
    const who = await person();
    const visa = await stripe.saveCard({
      ...who,
      card: { kind: 'processor-payment-method', processorPaymentMethodId: 'pm_card_visa' },
    });
    expect(visa).toMatchObject({ ok: true, card: { brand: 'Visa', last4: '4242', expMonth: 12 } });
    await savedCard(who, 'pm_card_mastercard');
    const customers = await db
      .select()
      .from(processorCustomers)
      .where(eq(processorCustomers.userId, who.userId));
    expect(customers).toHaveLength(1);
    const attached = requestsTo('/v1/payment_methods/pm_card_mastercard/attach');
    expect(attached.at(-1)?.params.customer).toBe(customers[0]!.processorCustomerId);
    // The same person in another organisation is another customer there.
    const elsewhere = { ...(await person()), userId: who.userId };
    await savedCard(elsewhere, 'pm_card_visa');
    const all = await db
      .select()
      .from(processorCustomers)
      .where(eq(processorCustomers.userId, who.userId));
    expect(new Set(all.map((c) => c.processorCustomerId)).size).toBe(2);
  });

  it('refuses a card number (Stripe takes cards in its own form) and an unknown PaymentMethod', async () => {
    const who = await person();
    const before = wire.requests.length;
    expect(
      await stripe.saveCard({
        ...who,
        card: {
          kind: 'card-number',
          number: '4242424242424242',
          expMonth: 12,
          expYear: 2030,
          cvc: '123',
        },
      }),
    ).toEqual({ ok: false, message: stripeMessages.numberRefused });
    expect(wire.requests.length).toBe(before);
    expect(
      await stripe.saveCard({
        ...who,
        card: { kind: 'processor-payment-method', processorPaymentMethodId: 'pm_nothing' },
      }),
    ).toEqual({ ok: false, message: stripeMessages.cardNotSaved });
    // And the sandbox refuses Stripe's form.
    expect(
      await sandboxProcessor(db).saveCard({
        ...who,
        card: { kind: 'processor-payment-method', processorPaymentMethodId: 'pm_card_visa' },
      }),
    ).toEqual({ ok: false, message: sandboxMessages.numberOnly });
  });

  it('charges a PaymentIntent off-session, confirmed, with our idempotency key', async () => {
    const who = await person();
    const method = await savedCard(who, 'pm_card_visa');
    const key = `${crypto.randomUUID()}:1`;
    const outcome = await charge(who, method, key);
    expect(outcome).toMatchObject({ status: 'succeeded', chargeId: expect.stringMatching(/^pi_/) });
    const [request] = requestsTo('/v1/payment_intents').filter((r) => r.idempotencyKey === key);
    const [customer] = await db
      .select()
      .from(processorCustomers)
      .where(eq(processorCustomers.userId, who.userId));
    expect(request?.params).toMatchObject({
      amount: '11900',
      currency: 'usd',
      confirm: 'true',
      off_session: 'true',
      payment_method: method,
      customer: customer!.processorCustomerId,
    });
  });

  it('says why a card is declined, and when the bank asks to confirm the payment', async () => {
    const who = await person();
    const key = () => `${crypto.randomUUID()}:1`;
    const declined = await savedCard(who, 'pm_card_chargeDeclined');
    const declinedKey = key();
    expect(await charge(who, declined, declinedKey)).toEqual({
      status: 'declined',
      message: cardMessages.declined,
    });
    const poor = await savedCard(who, 'pm_card_chargeDeclinedInsufficientFunds');
    expect(await charge(who, poor, key())).toEqual({
      status: 'declined',
      message: cardMessages.insufficientFunds,
    });
    const confirm = await savedCard(who, 'pm_card_authenticationRequired');
    expect(await charge(who, confirm, key())).toEqual({
      status: 'requires-action',
      message: stripeMessages.requiresAuthentication,
    });
    // Asked again with the same key: Stripe answers the stored refusal, no second attempt.
    expect(await charge(who, declined, declinedKey)).toMatchObject({ status: 'declined' });
    expect(
      wire.created('payment_intent').filter((i) => i.payment_method === declined),
    ).toHaveLength(1);
  });

  it('makes one PaymentIntent for one key, however often it is asked', async () => {
    const who = await person();
    const method = await savedCard(who, 'pm_card_visa');
    const key = `${crypto.randomUUID()}:1`;
    const answers = await Promise.all([1, 2, 3].map(() => charge(who, method, key)));
    answers.push(await charge(who, method, key));
    expect(
      new Set(answers.map((a) => (a.status === 'succeeded' ? a.chargeId : a.status))).size,
    ).toBe(1);
    const intents = wire.created('payment_intent').filter((i) => i.payment_method === method);
    expect(intents).toHaveLength(1);
  });

  it('throws when Stripe does not answer or fails, and the same key then finds the first charge', async () => {
    const who = await person();
    const method = await savedCard(who, 'pm_card_visa');
    const key = `${crypto.randomUUID()}:1`;
    wire.failNext('http-500');
    await expect(charge(who, method, key)).rejects.toThrow();
    // The charge is made, its answer lost on the way back — twice, since the SDK asks once
    // more by itself after a closed connection, whatever maxNetworkRetries says.
    wire.failNext('drop', 'drop');
    await expect(charge(who, method, key)).rejects.toThrow();
    expect(await charge(who, method, key)).toMatchObject({ status: 'succeeded' });
    const asked = requestsTo('/v1/payment_intents').filter(
      (r) => r.params.payment_method === method,
    );
    expect(asked.map((r) => r.idempotencyKey)).toEqual([key, key, key, key]);
    expect(wire.created('payment_intent').filter((i) => i.payment_method === method)).toHaveLength(
      1,
    );

    const down = await startStripeWireServer();
    await down.close();
    const unreachable = stripeProcessor(
      db,
      createStripeClient({
        secretKey: 'sk_test_wire',
        apiBase: down.apiBase,
        maxNetworkRetries: 0,
      }),
    );
    await expect(
      unreachable.createProduct({ orgId: who.orgId, productId: 'p', name: 'x' }),
    ).rejects.toThrow();
  });

  /** A charge of 11 900 that succeeded: its PaymentIntent's id. */
  async function succeededCharge(who: { orgId: string; userId: string }) {
    const outcome = await charge(
      who,
      await savedCard(who, 'pm_card_visa'),
      `${crypto.randomUUID()}:1`,
    );
    if (outcome.status !== 'succeeded') throw new Error(`the charge was ${outcome.status}`);
    return outcome.chargeId;
  }
  const refund = (
    who: { orgId: string },
    chargeId: string,
    amountMinor: number,
    key = `refund:${crypto.randomUUID()}`,
  ) => stripe.refund({ orgId: who.orgId, chargeId, amountMinor, idempotencyKey: key });
  const refundsOf = (chargeId: string) =>
    wire.created('refund').filter((r) => r.payment_intent === chargeId);

  it('refunds a succeeded charge once per key, with our idempotency key', async () => {
    const who = await person();
    const chargeId = await succeededCharge(who);
    const key = `refund:${crypto.randomUUID()}`;
    const first = await refund(who, chargeId, 4_000, key);
    expect(first).toEqual({ status: 'refunded', refundId: expect.stringMatching(/^re_/) });
    expect(await refund(who, chargeId, 4_000, key)).toEqual(first);
    const asked = requestsTo('/v1/refunds').filter((r) => r.idempotencyKey === key);
    expect(asked.map((r) => r.replayed)).toEqual([false, true]);
    expect(asked[0]?.params).toEqual({
      payment_intent: chargeId,
      amount: '4000',
      metadata: { orgId: who.orgId },
    });
    expect(refundsOf(chargeId)).toEqual([
      expect.objectContaining({ id: (first as { refundId: string }).refundId, amount: 4_000 }),
    ]);
  });

  it('refuses a refund beyond what is left of the charge', async () => {
    const who = await person();
    const chargeId = await succeededCharge(who);
    const refused = { status: 'refused', message: stripeMessages.refundRefused };
    expect(await refund(who, chargeId, 10_000)).toMatchObject({ status: 'refunded' });
    // More than is left (amount_too_large), then the rest, then anything (charge_already_refunded).
    expect(await refund(who, chargeId, 2_000)).toEqual(refused);
    expect(await refund(who, chargeId, 1_900)).toMatchObject({ status: 'refunded' });
    expect(await refund(who, chargeId, 1)).toEqual(refused);
    expect(refundsOf(chargeId).map((r) => r.amount)).toEqual([10_000, 1_900]);
    expect(wire.refundedOf(chargeId)).toBe(11_900);
  });

  it('refuses a refund of a declined charge and of a PaymentIntent Stripe does not know', async () => {
    const who = await person();
    const declined = await savedCard(who, 'pm_card_chargeDeclined');
    expect(await charge(who, declined, `${crypto.randomUUID()}:1`)).toMatchObject({
      status: 'declined',
    });
    const [intent] = wire.created('payment_intent').filter((i) => i.payment_method === declined);
    const confirm = await savedCard(who, 'pm_card_authenticationRequired');
    expect(await charge(who, confirm, `${crypto.randomUUID()}:1`)).toMatchObject({
      status: 'requires-action',
    });
    const [waiting] = wire.created('payment_intent').filter((i) => i.payment_method === confirm);
    for (const chargeId of [intent!.id as string, waiting!.id as string, 'pi_nothing']) {
      expect(await refund(who, chargeId, 100), chargeId).toEqual({
        status: 'refused',
        message: stripeMessages.refundRefused,
      });
      expect(refundsOf(chargeId)).toEqual([]);
    }
  });

  it('throws when a refund fails at Stripe or its answer is lost, and the same key then finds the first refund', async () => {
    const who = await person();
    const chargeId = await succeededCharge(who);
    const key = `refund:${crypto.randomUUID()}`;
    wire.failNextOn('/v1/refunds', 'http-500');
    await expect(refund(who, chargeId, 11_900, key)).rejects.toThrow();
    expect(refundsOf(chargeId)).toEqual([]);
    // Made, its answer lost — twice, as the SDK asks once more by itself after a closed connection.
    wire.failNextOn('/v1/refunds', 'drop', 'drop');
    await expect(refund(who, chargeId, 11_900, key)).rejects.toThrow();
    const found = await refund(who, chargeId, 11_900, key);
    expect(found).toMatchObject({ status: 'refunded' });
    const refunds = refundsOf(chargeId);
    expect(refunds).toEqual([
      expect.objectContaining({ id: (found as { refundId: string }).refundId, amount: 11_900 }),
    ]);
    const asked = requestsTo('/v1/refunds').filter((r) => r.params.payment_intent === chargeId);
    expect(asked.map((r) => r.idempotencyKey)).toEqual([key, key, key, key]);
    expect(wire.refundedOf(chargeId)).toBe(11_900);
  });

  it('says a refund Stripe fails on is an outage, and a refused one is still an answer', async () => {
    const who = await person();
    const chargeId = await succeededCharge(who);
    const guarded = withOutagesAsUnavailable(stripe);
    wire.failNextOn('/v1/refunds', 'http-500');
    const outage = guarded.refund({
      orgId: who.orgId,
      chargeId,
      amountMinor: 11_900,
      idempotencyKey: `refund:${crypto.randomUUID()}`,
    });
    await expect(outage).rejects.toBeInstanceOf(ServiceUnavailable);
    await expect(outage).rejects.toThrow(processorUnavailableMessage);
    expect(
      await guarded.refund({
        orgId: who.orgId,
        chargeId: 'pi_nothing',
        amountMinor: 100,
        idempotencyKey: `refund:${crypto.randomUUID()}`,
      }),
    ).toEqual({ status: 'refused', message: stripeMessages.refundRefused });
  });

  it('starts the renewals on our next billing date, at the schedule’s interval, without proration', async () => {
    const who = await person();
    const method = await savedCard(who, 'pm_card_visa');
    const request = {
      ...who,
      processorProductId: 'prod_x',
      priceMinor: 9_900,
      discount: null,
      subscribedAt: new Date(),
      currency: 'USD',
      schedule: 'quarter' as const,
      firstBillingDate: '2099-12-24',
      timeZone: 'America/New_York',
      processorPaymentMethodId: method,
      subscriptionId: crypto.randomUUID(),
      idempotencyKey: `subscription:${crypto.randomUUID()}`,
    };
    const { processorSubscriptionId } = await stripe.startSubscription(request);
    expect((await stripe.startSubscription(request)).processorSubscriptionId).toBe(
      processorSubscriptionId,
    );
    const [asked] = requestsTo('/v1/subscriptions').filter(
      (r) => r.idempotencyKey === request.idempotencyKey,
    );
    // Noon in New York on Dec 24 is 17:00 UTC.
    expect(asked?.params).toMatchObject({
      default_payment_method: method,
      trial_end: String(Date.UTC(2099, 11, 24, 17) / 1000),
      proration_behavior: 'none',
      off_session: 'true',
      items: [
        {
          price_data: {
            currency: 'usd',
            product: 'prod_x',
            unit_amount: '9900',
            recurring: { interval: 'month', interval_count: '3' },
          },
        },
      ],
    });
    expect(
      wire.created('subscription').filter((s) => s.id === processorSubscriptionId),
    ).toHaveLength(1);

    for (const [schedule, interval, count] of [
      ['week', 'week', '1'],
      ['bi-weekly', 'week', '2'],
      ['month', 'month', '1'],
      ['bi-yearly', 'month', '6'],
      ['year', 'year', '1'],
    ] as const) {
      const key = `subscription:${crypto.randomUUID()}`;
      await stripe.startSubscription({ ...request, schedule, idempotencyKey: key });
      const sent = requestsTo('/v1/subscriptions').find((r) => r.idempotencyKey === key);
      expect(sent?.params.items, schedule).toMatchObject([
        { price_data: { recurring: { interval, interval_count: count } } },
      ]);
    }

    await stripe.cancelSubscriptionAtPeriodEnd({ orgId: who.orgId, processorSubscriptionId });
    expect(wire.object(processorSubscriptionId)).toMatchObject({ cancel_at_period_end: true });
  });

  it('renews with a replaced card: the subscription’s default payment method, asked once per card', async () => {
    const who = await person();
    const first = await savedCard(who, 'pm_card_visa');
    const { processorSubscriptionId } = await stripe.startSubscription({
      ...who,
      processorProductId: 'prod_x',
      priceMinor: 9_900,
      discount: null,
      subscribedAt: new Date('2099-11-24T15:00:00Z'),
      currency: 'USD',
      schedule: 'month',
      firstBillingDate: '2099-12-24',
      timeZone: 'UTC',
      processorPaymentMethodId: first,
      subscriptionId: crypto.randomUUID(),
      idempotencyKey: `subscription:${crypto.randomUUID()}`,
    });
    const replacement = await savedCard(who, 'pm_card_mastercard');
    const change = {
      ...who,
      processorSubscriptionId,
      processorPaymentMethodId: replacement,
    };
    await stripe.useCardForSubscription(change);
    await stripe.useCardForSubscription(change);
    expect(wire.object(processorSubscriptionId)).toMatchObject({
      default_payment_method: replacement,
    });
    const updates = requestsTo(`/v1/subscriptions/${processorSubscriptionId}`).filter(
      (r) => r.params.default_payment_method === replacement,
    );
    expect(updates.map((r) => r.idempotencyKey)).toEqual([
      `default-payment-method:${processorSubscriptionId}:${replacement}`,
      `default-payment-method:${processorSubscriptionId}:${replacement}`,
    ]);
    expect(updates.filter((r) => !r.replayed)).toHaveLength(1);
    // Another person's card is not this subscription's (Stripe refuses it; it is thrown).
    const stranger = await savedCard(await person(), 'pm_card_visa');
    await expect(
      stripe.useCardForSubscription({ ...change, processorPaymentMethodId: stranger }),
    ).rejects.toThrow(/does not have a payment method/);
  });

  it('makes our coupon at Stripe once for every subscription that needs the same duration', async () => {
    const couponId = crypto.randomUUID();
    const discount = {
      couponId,
      name: 'A spring offer with a name longer than Stripe allows for one',
      type: 'fixed' as const,
      amount: 1_500,
      plan: {
        forever: false as const,
        count: 2,
        lastDiscounted: '2099-01-24',
        firstFullPrice: '2099-02-24',
      },
    };
    const ids: string[] = [];
    const { orgId } = await person();
    for (const userId of [(await insertTestUser(db)).id, (await insertTestUser(db)).id]) {
      const who = { orgId, userId };
      const { processorSubscriptionId } = await stripe.startSubscription({
        ...who,
        processorProductId: 'prod_x',
        priceMinor: 9_900,
        discount,
        subscribedAt: new Date('2098-11-24T15:00:00Z'),
        currency: 'USD',
        schedule: 'month',
        firstBillingDate: '2098-12-24',
        timeZone: 'America/New_York',
        processorPaymentMethodId: await savedCard(who, 'pm_card_visa'),
        subscriptionId: crypto.randomUUID(),
        idempotencyKey: `subscription:${crypto.randomUUID()}`,
      });
      const [discountId] = wire.object(processorSubscriptionId)!.discounts as string[];
      ids.push((wire.object(discountId!)!.coupon as { id: string }).id);
    }
    expect(ids[0]).toBe(`ours_${couponId}_m3_usd`);
    expect(ids[1]).toBe(ids[0]);
    expect(wire.created('coupon').filter((c) => c.id === ids[0])).toEqual([
      expect.objectContaining({
        name: 'A spring offer with a name longer than S',
        amount_off: 1_500,
        currency: 'usd',
        duration: 'repeating',
        duration_in_months: 3,
      }),
    ]);
  });
});
