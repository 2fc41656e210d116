import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { emailOutbox, productInvites, sandboxCharges, subscriptions } from '@platform/schema/db';
import { totalCharge } from './charge.service.ts';
import {
  cancelSubscriptionResponseSchema,
  shopBuyResponseSchema,
  shopMessages,
  shopQuoteSchema,
} from '@platform/schema/payments/shop.zod';
import {
  addMembership,
  insertTestOrg,
  insertTestUser,
  linkChild,
  logInAs,
} from '../testing/auth-fixtures.ts';
import type { CookieJar } from '../testing/cookie-jar.ts';
import { settledEmailsTo, waitFor } from '../testing/job-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

const visa = { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' };

type Customer = { id: string; email: string; jar: CookieJar };

/**
 * The customer's Shop over HTTP (issue 15): a customer buys in their organisation's app, with a
 * coupon code, once however often Pay is sent for one checkout; another organisation's app,
 * a child's own session and another customer's subscription are refused; cancelling at period
 * end is self-service and emailed.
 */
describe.each(testDatabaseKinds)('the shop on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let orgId: string;
  let otherOrgId: string;
  let owner: CookieJar;
  let customer: (firstName: string) => Promise<Customer>;
  let ownerId: string;
  let ann: Customer;
  let ben: Customer;
  let kid: Customer;
  let parent: Customer;
  let monthlyId: string;
  let packId: string;
  let consultId: string;

  const post = (jar: CookieJar | null, url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, payload, ...(jar ? { headers: jar.headers() } : {}) });

  beforeAll(async () => {
    t = await createTestApp(kind);
    orgId = (await insertTestOrg(t.db)).id;
    otherOrgId = (await insertTestOrg(t.db)).id;
    const ownerUser = await insertTestUser(t.db);
    ownerId = ownerUser.id;
    await addMembership(t.db, ownerUser.id, orgId, 'staff');
    owner = (await logInAs(t.app, ownerUser.email!)).jar;
    customer = async (firstName: string): Promise<Customer> => {
      const user = await insertTestUser(t.db, { firstName });
      await addMembership(t.db, user.id, orgId, 'customer');
      await addMembership(t.db, user.id, otherOrgId, 'customer');
      const { jar } = await logInAs(t.app, user.email!, {
        profileType: 'use-customer',
        profileOrgId: orgId,
      });
      return { id: user.id, email: user.email!, jar };
    };
    ann = await customer('Ann');
    ben = await customer('Ben');
    kid = await customer('Kid');
    parent = await customer('Parent');
    await linkChild(t.db, parent.id, kid.id, orgId);
    const product = async (payload: object) => {
      const made = await post(owner, '/api/catalogue/products', payload);
      expect(made.statusCode, made.body).toBe(201);
      return made.json<{ id: string }>().id;
    };
    monthlyId = await product({
      name: 'Unlimited',
      type: 'recurring',
      schedule: 'month',
      priceMinor: 10_000,
    });
    packId = await product({
      name: 'Pack',
      type: 'one-time',
      schedule: 'one-time',
      priceMinor: 5_000,
    });
    consultId = await product({
      name: 'Coaching',
      type: 'one-time',
      schedule: 'one-time',
      priceMinor: 0,
      state: 'requires-consultation',
    });
    const coupon = await post(owner, '/api/catalogue/coupons', {
      name: 'Spring20',
      type: 'percentage',
      amount: 20,
      numberOfRedemptions: 10,
      appliesToProductIds: [monthlyId],
      duration: { durationType: 'once', durationInMonths: null },
    });
    expect(coupon.statusCode, coupon.body).toBe(201);
  });
  afterAll(() => t.close());

  it('quotes with a coupon code (any case) and refuses codes and products it cannot sell', async () => {
    const quote = await post(ann.jar, '/api/shop/quote', {
      orgId,
      productId: monthlyId,
      couponCode: 'spring20',
    });
    expect(quote.statusCode, quote.body).toBe(200);
    expect(shopQuoteSchema.parse(quote.json())).toMatchObject({
      couponName: 'Spring20',
      totals: { total: 8_000, couponDiscount: 2_000 },
      processor: 'sandbox',
    });
    const wrong = await post(ann.jar, '/api/shop/quote', {
      orgId,
      productId: monthlyId,
      couponCode: 'nope',
    });
    expect(JSON.stringify(wrong.json())).toContain(shopMessages.couponUnknown);
    const elsewhere = await post(ann.jar, '/api/shop/quote', {
      orgId,
      productId: packId,
      couponCode: 'Spring20',
    });
    expect(JSON.stringify(elsewhere.json())).toContain(shopMessages.couponNotForProduct);
    const consult = await post(ann.jar, '/api/shop/quote', { orgId, productId: consultId });
    expect(JSON.stringify(consult.json())).toContain(shopMessages.consultation);
  });

  it('buys once however often Pay is sent for one checkout, and a new checkout is a new order', async () => {
    const checkoutId = crypto.randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        post(ann.jar, '/api/shop/buy', { orgId, productId: packId, checkoutId, card: visa }),
      ),
    );
    const results = answers.map((a) => shopBuyResponseSchema.parse(a.json()));
    expect(results.some((r) => r.valid)).toBe(true);
    for (const r of results)
      if (!r.valid) expect(r.message).toBe('This charge is already being processed.');
    const again = shopBuyResponseSchema.parse(
      (
        await post(ann.jar, '/api/shop/buy', { orgId, productId: packId, checkoutId, card: visa })
      ).json(),
    );
    expect(again).toMatchObject({ valid: true, recurring: false });
    const charges = async () =>
      (
        await t.db
          .select({ n: count() })
          .from(sandboxCharges)
          .where(and(eq(sandboxCharges.orgId, orgId), eq(sandboxCharges.amountMinor, 5_000)))
      )[0]?.n;
    expect(await charges()).toBe(1);
    // Ben cannot pay (or read) Ann's checkout.
    const theirs = await post(ben.jar, '/api/shop/buy', {
      orgId,
      productId: packId,
      checkoutId,
      card: visa,
    });
    expect(theirs.statusCode).toBe(404);
    const next = await post(ann.jar, '/api/shop/buy', {
      orgId,
      productId: packId,
      checkoutId: crypto.randomUUID(),
      card: visa,
    });
    expect(shopBuyResponseSchema.parse(next.json()).valid).toBe(true);
    expect(await charges()).toBe(2);
    // A receipt per order (the job queue's email), never one per Pay.
    const receiptsOf = async () =>
      (await settledEmailsTo(t.db, ann.email)).filter((e) =>
        e.subject.startsWith('Your receipt from'),
      );
    const receipts = await waitFor('two receipts', async () => {
      const found = await receiptsOf();
      return found.length >= 2 ? found : undefined;
    });
    expect(receipts).toHaveLength(2);
    expect(receipts[0]?.textBody).toContain('Total paid: $50.00');
  });

  it('pays only an order its own checkout made, for what the checkout was opened for', async () => {
    const declined = { ...visa, number: '4000000000000002' };
    const checkoutId = crypto.randomUUID();
    const first = await post(ann.jar, '/api/shop/buy', {
      orgId,
      productId: packId,
      checkoutId,
      card: declined,
    });
    expect(shopBuyResponseSchema.parse(first.json()).valid).toBe(false);
    // Another product (or price, or coupon) under the same checkout is another order.
    const switched = await post(ann.jar, '/api/shop/buy', {
      orgId,
      productId: monthlyId,
      checkoutId,
      card: visa,
    });
    expect(switched.statusCode).toBe(422);
    expect(JSON.stringify(switched.json())).toContain(shopMessages.orderChanged);
    // An order staff totaled at the desk, or an invitation's, is not the shop's to pay.
    const desk = await totalCharge(t.db, {
      orgId,
      actorUserId: ownerId,
      customerUserId: ann.id,
      productId: packId,
      couponId: null,
      paymentMethodId: null,
      priceMinor: null,
      startDate: null,
      prorationMode: 'charge-prorated',
      issuePunchCard: false,
    });
    const deskPay = await post(ann.jar, '/api/shop/buy', {
      orgId,
      productId: packId,
      checkoutId: desk.invoiceId,
      card: visa,
    });
    expect(deskPay.statusCode).toBe(404);
    const invited = await totalCharge(t.db, {
      orgId,
      actorUserId: ann.id,
      customerUserId: ann.id,
      productId: packId,
      couponId: null,
      paymentMethodId: null,
      priceMinor: null,
      startDate: null,
      prorationMode: 'charge-prorated',
      issuePunchCard: false,
    });
    await t.db.insert(productInvites).values({
      orgId,
      customerUserId: ann.id,
      productId: packId,
      action: 'create-customer-subscription-invite',
      status: 'cancelled',
      expiresAt: new Date(),
      invoiceId: invited.invoiceId,
    });
    const invitePay = await post(ann.jar, '/api/shop/buy', {
      orgId,
      productId: packId,
      checkoutId: invited.invoiceId,
      card: visa,
    });
    expect(invitePay.statusCode).toBe(404);
  });

  it('bounds card attempts per address as well as per account (card testing with fresh signups)', async () => {
    const address = '203.0.113.77';
    const people = [await customer('Tess'), await customer('Tom'), await customer('Tia')];
    const attempt = (who: Customer) =>
      t.app.inject({
        method: 'POST',
        url: '/api/shop/buy',
        headers: who.jar.headers(),
        remoteAddress: address,
        payload: {
          orgId,
          productId: packId,
          checkoutId: crypto.randomUUID(),
          card: { ...visa, number: '4000000000000002' },
        },
      });
    for (let i = 0; i < 40; i++) {
      expect((await attempt(people[i % 3]!)).statusCode).toBe(200);
    }
    const refused = await attempt(people[0]!);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('buys only in the organisation’s own app, and a child only through a guardian’s switch', async () => {
    const other = await post(ann.jar, '/api/shop/quote', { orgId: otherOrgId, productId: packId });
    expect(other.statusCode).toBe(403);
    expect((await post(owner, '/api/shop/quote', { orgId, productId: packId })).statusCode).toBe(
      403,
    );
    expect((await post(null, '/api/shop/quote', { junk: 1 })).statusCode).toBe(401);
    const own = await post(kid.jar, '/api/shop/quote', { orgId, productId: packId });
    expect(own.statusCode).toBe(403);
    expect(JSON.stringify(own.json())).toContain(shopMessages.guardianBuys);
    const switched = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { ...parent.jar.headers(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ impersonate: kid.id, redirectTo: '/dashboard' }).toString(),
    });
    expect(switched.statusCode).toBe(303);
    parent.jar.store(switched);
    const asKid = await post(parent.jar, '/api/shop/buy', {
      orgId,
      productId: packId,
      checkoutId: crypto.randomUUID(),
      card: visa,
    });
    expect(asKid.statusCode, asKid.body).toBe(200);
    expect(shopBuyResponseSchema.parse(asKid.json()).valid).toBe(true);
  });

  it('cancels a subscription at period end, by its customer only, with an email', async () => {
    const bought = shopBuyResponseSchema.parse(
      (
        await post(ann.jar, '/api/shop/buy', {
          orgId,
          productId: monthlyId,
          checkoutId: crypto.randomUUID(),
          card: visa,
        })
      ).json(),
    );
    expect(bought).toMatchObject({ valid: true, recurring: true });
    const subscriptionId = bought.valid ? bought.subscriptionId! : '';
    const url = `/api/shop/subscriptions/${subscriptionId}/cancel`;
    expect((await post(ben.jar, url, { orgId })).statusCode).toBe(404);
    const cancelled = await post(ann.jar, url, { orgId });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const answer = cancelSubscriptionResponseSchema.parse(cancelled.json());
    expect(answer.status).toBe('cancel-at-period-end');
    expect(answer.message).toMatch(/^Your subscription ends on .+\. Nothing more is charged\.$/);
    const [row] = await t.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, subscriptionId));
    expect(row?.status).toBe('cancel-at-period-end');
    const mails = await t.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, ann.email));
    expect(
      mails.filter((m) => m.subject === 'Your Unlimited subscription is cancelled'),
    ).toHaveLength(1);
    // Again: the same answer, no second email.
    expect((await post(ann.jar, url, { orgId })).statusCode).toBe(200);
    const after = await t.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, ann.email));
    expect(
      after.filter((m) => m.subject === 'Your Unlimited subscription is cancelled'),
    ).toHaveLength(1);
  });
});
