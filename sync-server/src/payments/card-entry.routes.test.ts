import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterItems } from '@platform/schema/db';
import { sandboxMessages } from '../adapters/payments/sandbox-cards.ts';
import { stripeMessages } from '../adapters/payments/stripe.ts';
import { addMembership, insertTestOrg, insertTestUser, logInAs } from '../testing/auth-fixtures.ts';
import type { CookieJar } from '../testing/cookie-jar.ts';
import { startStripeWireServer, type StripeWireServer } from '../testing/stripe-wire-server.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

const visa = { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' };
const monthly = { name: 'Unlimited', type: 'recurring', schedule: 'month', priceMinor: 9_900 };
const stripeEnv = (apiBase: string) => ({
  STRIPE_SECRET_KEY: 'sk_test_card_entry',
  STRIPE_WEBHOOK_SECRET: 'whsec_card_entry',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_card_entry',
  STRIPE_API_BASE: apiBase,
});

type Shop = Awaited<ReturnType<typeof openShop>>;

/** An organisation with a product, its owner at the desk, and a customer signed in to its app. */
async function openShop(t: Awaited<ReturnType<typeof createTestApp>>) {
  const org = await insertTestOrg(t.db);
  const ownerUser = await insertTestUser(t.db);
  await addMembership(t.db, ownerUser.id, org.id, 'staff');
  const owner = (await logInAs(t.app, ownerUser.email!)).jar;
  const post = (jar: CookieJar, url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, payload, headers: jar.headers() });
  const made = await post(owner, '/api/catalogue/products', monthly);
  expect(made.statusCode, made.body).toBe(201);
  const productId = made.json<{ id: string }>().id;
  const customer = async () => {
    const user = await insertTestUser(t.db, { firstName: 'Ann', lastName: 'Test' });
    await addMembership(t.db, user.id, org.id, 'customer');
    const [row] = await t.db
      .insert(rosterItems)
      .values({
        orgId: org.id,
        userId: user.id,
        firstName: 'Ann',
        lastName: 'Test',
        email: user.email,
        updatedAt: new Date(),
      })
      .returning();
    const { jar } = await logInAs(t.app, user.email!, {
      profileType: 'use-customer',
      profileOrgId: org.id,
    });
    return { jar, rosterId: row!.id };
  };
  const invite = async (rosterId: string) => {
    const sent = await post(owner, '/api/package-invite', {
      action: 'send-package-invite',
      rosterId,
      productId,
    });
    expect(sent.statusCode, sent.body).toBe(201);
    return sent.json<{ invite: { id: string } }>().invite.id;
  };
  return { orgId: org.id, owner, productId, post, customer, invite };
}

/** The four routes that take a new card, each with the card given as `card`. */
async function everyCardRoute(shop: Shop, newCard: object) {
  const ann = await shop.customer();
  const desk = await shop.post(
    shop.owner,
    `/api/charges/customers/${ann.rosterId}/payment-methods`,
    'card' in newCard ? (newCard.card as object) : newCard,
  );
  const buy = await shop.post(ann.jar, '/api/shop/buy', {
    orgId: shop.orgId,
    productId: shop.productId,
    checkoutId: crypto.randomUUID(),
    ...newCard,
  });
  const accept = await shop.post(ann.jar, '/api/package-invite', {
    action: 'accept-package-invite',
    inviteId: await shop.invite(ann.rosterId),
    ...newCard,
  });
  const replace = await shop.post(ann.jar, '/api/shop/payment-method', {
    orgId: shop.orgId,
    ...newCard,
  });
  return { desk, buy, accept, replace };
}

// Decision 0063: with Stripe a card is entered on the card-entry page and the money routes get
// the PaymentMethod it made; the sandbox keeps its typed numbers. Each takes only its own kind.
// The routes do not depend on the database kind: one is enough.
describe.each(testDatabaseKinds.slice(0, 1))('a new card at each money route on %s', (kind) => {
  describe('with Stripe', () => {
    let wire: StripeWireServer;
    let t: Awaited<ReturnType<typeof createTestApp>>;
    let shop: Shop;

    beforeAll(async () => {
      wire = await startStripeWireServer();
      t = await createTestApp(kind, { env: stripeEnv(wire.apiBase) });
      shop = await openShop(t);
    });
    afterAll(async () => {
      await t.close();
      await wire.close();
    });

    it("tells a signed-in screen the processor and Stripe's publishable key", async () => {
      const ann = await shop.customer();
      const answer = await t.app.inject({
        method: 'GET',
        url: '/api/payment-processor',
        headers: ann.jar.headers(),
      });
      expect(answer.json()).toEqual({
        processor: 'stripe',
        stripePublishableKey: 'pk_test_card_entry',
      });
    });

    it('takes the PaymentMethod Stripe Elements made at every route', async () => {
      const { desk, buy, accept, replace } = await everyCardRoute(shop, {
        processorPaymentMethodId: 'pm_card_visa',
      });
      expect(desk.statusCode, desk.body).toBe(201);
      expect(desk.json()).toMatchObject({ brand: 'Visa', last4: '4242' });
      expect(buy.json()).toMatchObject({ valid: true, recurring: true });
      expect(accept.json()).toMatchObject({ valid: true });
      expect(replace.json()).toMatchObject({ valid: true });
      const attached = wire.requests.filter((r) => r.path.endsWith('/attach'));
      expect(attached.length).toBeGreaterThanOrEqual(4);
    });

    it('refuses a card number at every route, and never sends it to Stripe', async () => {
      const before = wire.requests.length;
      const { desk, buy, accept, replace } = await everyCardRoute(shop, { card: visa });
      expect(desk.statusCode).toBe(422);
      expect(desk.json()).toMatchObject({ message: stripeMessages.numberRefused });
      for (const answer of [buy, accept, replace])
        expect(answer.json()).toEqual({ valid: false, message: stripeMessages.numberRefused });
      const sent = wire.requests.slice(before).map((r) => JSON.stringify(r.params));
      expect(sent.some((params) => params.includes('4242424242424242'))).toBe(false);
    });

    it('refuses a body with both a card and a PaymentMethod', async () => {
      const { buy, accept, replace } = await everyCardRoute(shop, {
        card: visa,
        processorPaymentMethodId: 'pm_card_visa',
      });
      for (const answer of [buy, accept, replace]) expect(answer.statusCode).toBe(400);
      // The desk's body is the card itself: a PaymentMethod beside its fields is refused too.
      const ann = await shop.customer();
      const both = await shop.post(
        shop.owner,
        `/api/charges/customers/${ann.rosterId}/payment-methods`,
        { ...visa, processorPaymentMethodId: 'pm_card_visa' },
      );
      expect(both.statusCode).toBe(400);
    });
  });

  describe('with the sandbox', () => {
    let t: Awaited<ReturnType<typeof createTestApp>>;
    let shop: Shop;

    beforeAll(async () => {
      t = await createTestApp(kind);
      shop = await openShop(t);
    });
    afterAll(() => t.close());

    it('refuses a PaymentMethod id at every route: only its test numbers are cards', async () => {
      const { desk, buy, accept, replace } = await everyCardRoute(shop, {
        processorPaymentMethodId: 'pm_card_visa',
      });
      expect(desk.statusCode).toBe(422);
      expect(desk.json()).toMatchObject({ message: sandboxMessages.numberOnly });
      for (const answer of [buy, accept, replace])
        expect(answer.json()).toEqual({ valid: false, message: sandboxMessages.numberOnly });
    });

    it('keeps taking the typed test card', async () => {
      const { desk, buy, accept, replace } = await everyCardRoute(shop, { card: visa });
      expect(desk.statusCode, desk.body).toBe(201);
      for (const answer of [buy, accept, replace])
        expect(answer.json()).toMatchObject({ valid: true });
    });
  });
});
