import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { emailOutbox, paymentMethods, subscriptions } from '@platform/schema/db';
import { purchaseDocSchema } from '@platform/schema/payments/purchase-docs.zod';
import {
  replaceCardResponseSchema,
  shopBuyResponseSchema,
  shopMessages,
} from '@platform/schema/payments/shop.zod';
import { cardMessages } from '../adapters/payments/card-messages.ts';
import { sandboxMessages } from '../adapters/payments/sandbox-cards.ts';
import {
  addMembership,
  insertTestOrg,
  insertTestUser,
  linkChild,
  logInAs,
  switchInto,
} from '../testing/auth-fixtures.ts';
import type { CookieJar } from '../testing/cookie-jar.ts';
import { pullAs } from '../testing/sync-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

const visa = { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' };
const mastercard = { number: '5555 5555 5555 4444', expMonth: 3, expYear: 2041, cvc: '321' };
const declining = { ...visa, number: '4000000000000002' };

type Customer = { id: string; email: string; jar: CookieJar };

/**
 * Issue 15 "the card on file (replace it)", decision 0064, over HTTP: a customer replaces the
 * card their subscriptions renew with — their own, or a child's in a guardian's switched
 * session — and the device learns it by replication; a declined card changes nothing; staff,
 * another organisation's app, a child's own session and nobody signed in are refused.
 */
describe.each(testDatabaseKinds)('the card on file on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let orgId: string;
  let otherOrgId: string;
  let owner: CookieJar;
  let outsider: CookieJar;
  let customer: (firstName: string) => Promise<Customer>;
  let monthlyId: string;
  let yearlyId: string;

  const post = (jar: CookieJar | null, url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, payload, ...(jar ? { headers: jar.headers() } : {}) });
  const replace = (jar: CookieJar | null, card: object, org = orgId) =>
    post(jar, '/api/shop/payment-method', { orgId: org, card });
  const buy = async (jar: CookieJar, productId: string) => {
    const answer = shopBuyResponseSchema.parse(
      (
        await post(jar, '/api/shop/buy', {
          orgId,
          productId,
          checkoutId: crypto.randomUUID(),
          card: visa,
        })
      ).json(),
    );
    if (!answer.valid || !answer.subscriptionId) throw new Error('the purchase failed');
    return answer.subscriptionId;
  };
  const cardOf = async (subscriptionId: string) => {
    const [row] = await t.db
      .select({ card: subscriptions.card, paymentMethodId: subscriptions.paymentMethodId })
      .from(subscriptions)
      .where(eq(subscriptions.id, subscriptionId));
    return row;
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    orgId = (await insertTestOrg(t.db)).id;
    otherOrgId = (await insertTestOrg(t.db)).id;
    const ownerUser = await insertTestUser(t.db);
    await addMembership(t.db, ownerUser.id, orgId, 'staff');
    owner = (await logInAs(t.app, ownerUser.email!)).jar;
    const outsiderUser = await insertTestUser(t.db);
    await addMembership(t.db, outsiderUser.id, otherOrgId, 'staff');
    outsider = (await logInAs(t.app, outsiderUser.email!)).jar;
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
    const product = async (name: string, schedule: string) => {
      const made = await post(owner, '/api/catalogue/products', {
        name,
        type: 'recurring',
        schedule,
        priceMinor: 10_000,
      });
      expect(made.statusCode, made.body).toBe(201);
      return made.json<{ id: string }>().id;
    };
    monthlyId = await product('Unlimited', 'month');
    yearlyId = await product('Yearly', 'year');
  });
  afterAll(() => t.close());

  it('makes the new card the one every renewing subscription uses, and tells the device', async () => {
    const ann = await customer('Ann');
    const ben = await customer('Ben');
    const monthly = await buy(ann.jar, monthlyId);
    const yearly = await buy(ann.jar, yearlyId);
    const bens = await buy(ben.jar, monthlyId);
    expect((await cardOf(monthly))?.card).toEqual({
      brand: 'Visa',
      last4: '4242',
      expMonth: 12,
      expYear: 2040,
    });
    // One cancelled at period end charges nothing more: its card stays as it was.
    const cancelled = await post(ann.jar, `/api/shop/subscriptions/${yearly}/cancel`, { orgId });
    expect(cancelled.statusCode, cancelled.body).toBe(200);

    const answer = await replace(ann.jar, mastercard);
    expect(answer.statusCode, answer.body).toBe(200);
    const card = { brand: 'Mastercard', last4: '4444', expMonth: 3, expYear: 2041 };
    expect(replaceCardResponseSchema.parse(answer.json())).toEqual({
      valid: true,
      card,
      subscriptions: 1,
      message: shopMessages.cardReplaced('Mastercard •••• 4444'),
    });
    const [kept] = await t.db
      .select()
      .from(paymentMethods)
      .where(and(eq(paymentMethods.userId, ann.id), eq(paymentMethods.last4, '4444')));
    expect(await cardOf(monthly)).toEqual({ card, paymentMethodId: kept?.id });
    expect((await cardOf(yearly))?.card?.last4).toBe('4242');
    // Another customer's subscription is not touched.
    expect((await cardOf(bens))?.card?.last4).toBe('4242');

    // The device pulls it with the purchase: brand, last 4 and expiry, never the number.
    const pulled = await pullAs(t, ann, 'purchases', '?batchSize=1000');
    expect(pulled.statusCode, pulled.body).toBe(200);
    expect(pulled.body).not.toContain('5555555555554444');
    const doc = pulled
      .json<{ documents: Array<{ id: string }> }>()
      .documents.find((d) => d.id === monthly);
    expect(purchaseDocSchema.parse(doc).card).toEqual(card);

    // Its owner is told the card changed.
    const mails = await t.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, ann.email));
    expect(mails.map((m) => m.subject)).toContainEqual(
      expect.stringMatching(/^Your card on file with .+ was changed$/),
    );
  });

  it('says the next retry uses it when a renewal failed, and saves it when nothing renews', async () => {
    const cas = await customer('Cas');
    const monthly = await buy(cas.jar, monthlyId);
    await t.db
      .update(subscriptions)
      .set({ status: 'past-due' })
      .where(eq(subscriptions.id, monthly));
    const answer = replaceCardResponseSchema.parse((await replace(cas.jar, mastercard)).json());
    expect(answer).toMatchObject({ valid: true, subscriptions: 1 });
    if (answer.valid) expect(answer.message).toContain(shopMessages.cardRetry);

    const dee = await customer('Dee');
    const saved = replaceCardResponseSchema.parse((await replace(dee.jar, mastercard)).json());
    expect(saved).toEqual({
      valid: true,
      card: { brand: 'Mastercard', last4: '4444', expMonth: 3, expYear: 2041 },
      subscriptions: 0,
      message: shopMessages.cardSaved('Mastercard •••• 4444'),
    });
  });

  it('keeps the card on file when the new one is declined or refused, with the processor’s words', async () => {
    const eve = await customer('Eve');
    const monthly = await buy(eve.jar, monthlyId);
    const before = await cardOf(monthly);
    for (const [card, message] of [
      [declining, cardMessages.declined],
      [{ ...visa, number: '4000000000009995' }, cardMessages.insufficientFunds],
      [{ ...visa, number: '4111111111111111' }, sandboxMessages.notATestCard],
      [{ ...visa, expYear: 2001 }, cardMessages.expired],
    ] as const) {
      const answer = await replace(eve.jar, card);
      expect(answer.statusCode, answer.body).toBe(200);
      expect(replaceCardResponseSchema.parse(answer.json())).toEqual({ valid: false, message });
    }
    expect(await cardOf(monthly)).toEqual(before);
    const kept = await t.db.select().from(paymentMethods).where(eq(paymentMethods.userId, eve.id));
    expect(kept.map((m) => m.last4)).toEqual(['4242']);
    // Not a card at all: the form's own rule, before any processor.
    expect((await replace(eve.jar, { ...visa, number: '12' })).statusCode).toBe(400);
  });

  it('replaces a child’s card only in a session the guardian switched into', async () => {
    const parent = await customer('Parent');
    const kid = await customer('Kid');
    await linkChild(t.db, parent.id, kid.id, orgId);
    const own = await replace(kid.jar, mastercard);
    expect(own.statusCode).toBe(403);
    expect(JSON.stringify(own.json())).toContain(shopMessages.guardianBuys);

    const parentsOwn = await buy(parent.jar, monthlyId);
    await switchInto(t.app, parent.jar, kid.id);
    const kids = await buy(parent.jar, monthlyId);
    const answer = await replace(parent.jar, mastercard);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(replaceCardResponseSchema.parse(answer.json())).toMatchObject({
      valid: true,
      subscriptions: 1,
    });
    expect((await cardOf(kids))?.card?.last4).toBe('4444');
    // The child's card changed, not the guardian's own.
    expect((await cardOf(parentsOwn))?.card?.last4).toBe('4242');
  });

  it('refuses staff, another organisation’s staff and app, and nobody signed in', async () => {
    const fay = await customer('Fay');
    expect((await replace(owner, mastercard)).statusCode).toBe(403);
    expect((await replace(outsider, mastercard)).statusCode).toBe(403);
    expect((await replace(outsider, mastercard, otherOrgId)).statusCode).toBe(403);
    expect((await replace(fay.jar, mastercard, otherOrgId)).statusCode).toBe(403);
    expect((await replace(null, { junk: true })).statusCode).toBe(401);
    const kept = await t.db.select().from(paymentMethods).where(eq(paymentMethods.last4, '4444'));
    expect(kept.filter((m) => m.userId === fay.id)).toEqual([]);
  });

  it('bounds card attempts like every card form', async () => {
    const gus = await customer('Gus');
    const attempt = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/shop/payment-method',
        headers: gus.jar.headers(),
        remoteAddress: '203.0.113.91',
        payload: { orgId, card: declining },
      });
    for (let i = 0; i < 20; i++) expect((await attempt()).statusCode).toBe(200);
    const refused = await attempt();
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});
