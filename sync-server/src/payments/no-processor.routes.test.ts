import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { invoices, paymentMethods, productInvites, rosterItems } from '@platform/schema/db';
import { chargeFlowMessages } from '@platform/schema/payments/charge-flow.rules';
import { NO_PROCESSOR_CODE } from '@platform/schema/payments/processor.zod';
import { addMembership, insertTestOrg, insertTestUser, logInAs } from '../testing/auth-fixtures.ts';
import type { CookieJar } from '../testing/cookie-jar.ts';
import { offerProduct } from '../testing/payment-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

const visa = { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' };

/**
 * spec §8 "Missing processor: 'Payment processing not available'" (decision 0061): with
 * PAYMENT_PROCESSOR=none every route that would keep a card, keep an order or charge answers
 * 409 with the spec's text and a code, after who-may and before anything is written; what
 * screens read says `processor: 'none'`, and what needs no processor still works.
 */
describe.each(testDatabaseKinds)('without a payment processor on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let orgId: string;
  let owner: CookieJar;
  let ann: { id: string; jar: CookieJar; rosterId: string };
  let externalRosterId: string;
  let productId: string;
  let inviteId: string;

  const call = (jar: CookieJar | null, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      ...(payload ? { payload } : {}),
      ...(jar ? { headers: jar.headers() } : {}),
    });
  const expectNoProcessor = (answer: Awaited<ReturnType<typeof call>>) => {
    expect(answer.statusCode, answer.body).toBe(409);
    expect(answer.json()).toEqual({
      error: 'PaymentProcessingUnavailable',
      code: NO_PROCESSOR_CODE,
      message: 'Payment processing not available',
    });
    expect(chargeFlowMessages.noProcessor).toBe('Payment processing not available');
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { env: { PAYMENT_PROCESSOR: 'none' } });
    orgId = (await insertTestOrg(t.db)).id;
    const ownerUser = await insertTestUser(t.db);
    await addMembership(t.db, ownerUser.id, orgId, 'staff');
    owner = (await logInAs(t.app, ownerUser.email!)).jar;
    const enrol = async (firstName: string, externalPayments = false) => {
      const user = await insertTestUser(t.db, { firstName });
      await addMembership(t.db, user.id, orgId, 'customer');
      const [row] = await t.db
        .insert(rosterItems)
        .values({
          orgId,
          userId: user.id,
          firstName,
          lastName: 'Test',
          email: user.email,
          externalPayments,
          updatedAt: new Date(),
        })
        .returning();
      return { user, rosterId: row!.id };
    };
    const a = await enrol('Ann');
    const { jar } = await logInAs(t.app, a.user.email!, {
      profileType: 'use-customer',
      profileOrgId: orgId,
    });
    ann = { id: a.user.id, jar, rosterId: a.rosterId };
    externalRosterId = (await enrol('Ext', true)).rosterId;
    // A product made while the deployment still had a processor.
    productId = (await offerProduct(t.db, { orgId, userId: ownerUser.id }, 'Unlimited')).id;
    const [invite] = await t.db
      .insert(productInvites)
      .values({
        orgId,
        customerUserId: ann.id,
        productId,
        action: 'create-customer-subscription-invite',
        status: 'pending',
        expiresAt: new Date(Date.now() + 86_400_000),
      })
      .returning();
    inviteId = invite!.id;
  });
  afterAll(() => t.close());

  it('says so to every screen that would offer a card', async () => {
    expect((await call(ann.jar, 'GET', '/api/payment-processor')).json()).toEqual({
      processor: 'none',
      stripePublishableKey: null,
    });
    expect((await call(null, 'GET', '/api/payment-processor')).statusCode).toBe(401);
    expect((await call(owner, 'GET', '/api/catalogue')).json()).toMatchObject({
      processor: 'none',
    });
    const context = await call(owner, 'GET', `/api/charges/customers/${ann.rosterId}`);
    expect(context.statusCode, context.body).toBe(200);
    expect(context.json()).toMatchObject({ processor: 'none' });
    const quote = await call(ann.jar, 'POST', '/api/shop/quote', { orgId, productId });
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json()).toMatchObject({ processor: 'none' });
    const invite = await call(ann.jar, 'POST', '/api/package-invite', {
      action: 'get-package-invite',
      inviteId,
    });
    expect(invite.statusCode, invite.body).toBe(200);
    expect(invite.json()).toMatchObject({ processor: 'none', status: 'pending' });
    expect((await call(owner, 'GET', '/api/subscriptions')).json()).toMatchObject({
      processor: 'none',
    });
  });

  it('answers every money route with the spec’s text, and writes nothing', async () => {
    expectNoProcessor(
      await call(owner, 'POST', '/api/catalogue/products', {
        name: 'New',
        type: 'one-time',
        schedule: 'one-time',
        priceMinor: 1_000,
      }),
    );
    expectNoProcessor(
      await call(owner, 'POST', `/api/charges/customers/${ann.rosterId}/payment-methods`, visa),
    );
    expectNoProcessor(
      await call(owner, 'POST', '/api/charges/total', {
        rosterId: ann.rosterId,
        productId,
        paymentMethodId: null,
      }),
    );
    expectNoProcessor(
      await call(owner, 'POST', '/api/charges/run', { invoiceId: crypto.randomUUID() }),
    );
    expectNoProcessor(
      await call(ann.jar, 'POST', '/api/shop/buy', {
        orgId,
        productId,
        checkoutId: crypto.randomUUID(),
        card: visa,
      }),
    );
    expectNoProcessor(
      await call(ann.jar, 'POST', '/api/shop/payment-method', { orgId, card: visa }),
    );
    expectNoProcessor(
      await call(owner, 'POST', '/api/package-invite', {
        action: 'send-package-invite',
        rosterId: ann.rosterId,
        productId,
      }),
    );
    expectNoProcessor(
      await call(ann.jar, 'POST', '/api/package-invite', {
        action: 'accept-package-invite',
        inviteId,
        card: visa,
      }),
    );
    const [cards] = await t.db.select({ n: count() }).from(paymentMethods);
    const [orders] = await t.db.select({ n: count() }).from(invoices);
    expect([cards?.n, orders?.n]).toEqual([0, 0]);
    const [invite] = await t.db
      .select()
      .from(productInvites)
      .where(eq(productInvites.id, inviteId));
    expect(invite?.status).toBe('pending');
  });

  it('asks who may first: a refusal stays a refusal', async () => {
    expect(
      (
        await call(owner, 'POST', '/api/shop/buy', {
          orgId,
          productId,
          checkoutId: crypto.randomUUID(),
          card: visa,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await call(ann.jar, 'POST', '/api/charges/run', { invoiceId: inviteId })).statusCode,
    ).toBe(403);
    expect((await call(null, 'POST', '/api/shop/payment-method', { orgId })).statusCode).toBe(401);
  });

  it('still records a subscription paid outside the platform', async () => {
    const sent = await call(owner, 'POST', '/api/package-invite', {
      action: 'send-package-invite',
      rosterId: externalRosterId,
      productId,
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({
      invite: { action: 'start-customer-subscription-for-external-payment', status: 'accepted' },
    });
  });
});
