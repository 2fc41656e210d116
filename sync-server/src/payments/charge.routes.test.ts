import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { rosterItems, sandboxCharges } from '@platform/schema/db';
import {
  chargeContextSchema,
  runChargeResponseSchema,
  todaysSalesSchema,
  totalChargeResponseSchema,
} from '@platform/schema/payments/charge.zod';
import { addMembership, insertTestOrg, insertTestUser, logInAs } from '../testing/auth-fixtures.ts';
import type { CookieJar } from '../testing/cookie-jar.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

const monthly = { name: 'Unlimited', type: 'recurring', schedule: 'month', priceMinor: 9_900 };
const visa = { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2040, cvc: '123' };
const declining = { ...visa, number: '4000000000000002' };

/**
 * The charge flow over HTTP (issue 15): only a seller of the organisation (manage-point-of-sale)
 * reads a customer's cards, adds one, totals and runs a charge; a seller of another organisation
 * finds nothing (404), staff without the claim and customers are refused (403), nobody signed
 * in gets 401 — each before the body is read. Run charge is charged once however often it is sent.
 */
describe.each(testDatabaseKinds)('the charge routes on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  const jars: Record<'owner' | 'coach' | 'customer' | 'otherOwner', CookieJar> = {} as never;
  let rosterId: string;
  let productId: string;
  let otherRosterId: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const org = await insertTestOrg(t.db);
    const other = await insertTestOrg(t.db);
    const people = {
      owner: await insertTestUser(t.db),
      coach: await insertTestUser(t.db),
      customer: await insertTestUser(t.db),
      otherOwner: await insertTestUser(t.db),
    };
    const stranger = await insertTestUser(t.db);
    await addMembership(t.db, people.owner.id, org.id, 'staff');
    await addMembership(t.db, people.coach.id, org.id, 'staff', ['view-customers']);
    await addMembership(t.db, people.customer.id, org.id, 'customer');
    await addMembership(t.db, people.otherOwner.id, other.id, 'staff');
    await addMembership(t.db, stranger.id, other.id, 'customer');
    const enrol = async (orgId: string, user: { id: string; email: string | null }) => {
      const [row] = await t.db
        .insert(rosterItems)
        .values({
          orgId,
          userId: user.id,
          firstName: 'Casey',
          lastName: 'Member',
          email: user.email,
          updatedAt: new Date(),
        })
        .returning();
      return row!.id;
    };
    rosterId = await enrol(org.id, people.customer);
    otherRosterId = await enrol(other.id, stranger);
    for (const [name, person] of Object.entries(people)) {
      const view = name === 'customer' ? { profileType: 'use-customer', profileOrgId: org.id } : {};
      jars[name as keyof typeof jars] = (await logInAs(t.app, person.email!, view)).jar;
    }
    const created = await call(jars.owner, 'POST', '/api/catalogue/products', monthly);
    expect(created.statusCode).toBe(201);
    productId = created.json().id;
  });
  afterAll(() => t.close());

  const call = (jar: CookieJar | null, method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
      ...(jar ? { headers: jar.headers() } : {}),
    });

  const addCard = async (card: typeof visa) => {
    const answer = await call(
      jars.owner,
      'POST',
      `/api/charges/customers/${rosterId}/payment-methods`,
      card,
    );
    expect(answer.statusCode).toBe(201);
    return answer.json<{ id: string }>().id;
  };

  const total = async (paymentMethodId: string) => {
    const answer = await call(jars.owner, 'POST', '/api/charges/total', {
      rosterId,
      productId,
      paymentMethodId,
    });
    expect(answer.statusCode).toBe(200);
    return totalChargeResponseSchema.parse(answer.json());
  };

  it('offers the seller the customer, their cards and the products, with the sandbox named', async () => {
    const answer = await call(jars.owner, 'GET', `/api/charges/customers/${rosterId}`);
    expect(answer.statusCode).toBe(200);
    const context = chargeContextSchema.parse(answer.json());
    expect(context.customer.name).toBe('Casey Member');
    expect(context.processor).toBe('sandbox');
    expect(context.products.map((p) => p.id)).toEqual([productId]);
    expect(context.today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('keeps a test card and refuses a number that is not one, with the reason', async () => {
    const id = await addCard(visa);
    const context = chargeContextSchema.parse(
      (await call(jars.owner, 'GET', `/api/charges/customers/${rosterId}`)).json(),
    );
    expect(context.paymentMethods).toContainEqual(
      expect.objectContaining({ id, brand: 'Visa', last4: '4242' }),
    );
    const real = await call(
      jars.owner,
      'POST',
      `/api/charges/customers/${rosterId}/payment-methods`,
      {
        ...visa,
        number: '4111 1111 1111 1112',
      },
    );
    expect(real.statusCode).toBe(422);
    expect(JSON.stringify(real.json())).toContain('use a test card');
    const garbled = await call(
      jars.owner,
      'POST',
      `/api/charges/customers/${rosterId}/payment-methods`,
      {
        ...visa,
        number: 'abc',
      },
    );
    expect(garbled.statusCode).toBe(400);
    expect(JSON.stringify(garbled.json())).toContain('Enter the card number.');
  });

  it('totals and charges a subscription once, however often Run charge is sent at once', async () => {
    const card = await addCard(visa);
    const { invoiceId, totals } = await total(card);
    expect(totals.total).toBe(9_900);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => call(jars.owner, 'POST', '/api/charges/run', { invoiceId })),
    );
    const results = answers.map((a) => runChargeResponseSchema.parse(a.json()));
    expect(results.some((r) => r.valid)).toBe(true);
    // The others are told it is in progress or answered the same paid result.
    for (const r of results) if (!r.valid) expect(r.inProgress).toBe(true);
    const again = runChargeResponseSchema.parse(
      (await call(jars.owner, 'POST', '/api/charges/run', { invoiceId })).json(),
    );
    expect(again).toMatchObject({ valid: true, invoiceId, recurring: true });
    const [charged] = await t.db
      .select({ n: count() })
      .from(sandboxCharges)
      .where(eq(sandboxCharges.idempotencyKey, `${invoiceId}:1`));
    expect(charged?.n).toBe(1);
    const [all] = await t.db
      .select({ n: count() })
      .from(sandboxCharges)
      .where(eq(sandboxCharges.amountMinor, 9_900));
    expect(all?.n).toBe(1);

    // The point of sale's day lists it once, with the customer's name and the day's total.
    const today = await call(jars.owner, 'GET', '/api/charges/today');
    expect(today.statusCode).toBe(200);
    const sales = todaysSalesSchema.parse(today.json());
    expect(sales.sales.filter((s) => s.invoiceId === invoiceId)).toEqual([
      expect.objectContaining({
        customerName: 'Casey Member',
        productName: 'Unlimited',
        totalMinor: 9_900,
        subscription: true,
        rosterId,
      }),
    ]);
    expect(sales.totalMinor).toBe(sales.sales.reduce((sum, s) => sum + s.totalMinor, 0));
    // Another organisation's till does not see it.
    const theirs = todaysSalesSchema.parse(
      (await call(jars.otherOwner, 'GET', '/api/charges/today')).json(),
    );
    expect(theirs.sales.map((s) => s.invoiceId)).not.toContain(invoiceId);
  });

  it('answers a declined card as an invalid result with the reason, and the invoice may be charged again', async () => {
    const card = await addCard(declining);
    const { invoiceId } = await total(card);
    const answer = await call(jars.owner, 'POST', '/api/charges/run', { invoiceId });
    expect(answer.statusCode).toBe(200);
    expect(runChargeResponseSchema.parse(answer.json())).toMatchObject({
      valid: false,
      message: 'Your card was declined.',
    });
  });

  it('refuses a start date outside the schedule’s window with the spec’s message', async () => {
    const card = await addCard(visa);
    const answer = await call(jars.owner, 'POST', '/api/charges/total', {
      rosterId,
      productId,
      paymentMethodId: card,
      startDate: '2000-01-01',
    });
    expect(answer.statusCode).toBe(422);
    expect(JSON.stringify(answer.json())).toContain('The start date must be tomorrow or later.');
  });

  describe('who may charge', () => {
    const routes = () =>
      [
        ['GET', `/api/charges/customers/${rosterId}`, undefined],
        ['GET', '/api/charges/today', undefined],
        ['POST', `/api/charges/customers/${rosterId}/payment-methods`, visa],
        ['POST', '/api/charges/total', { rosterId, productId, paymentMethodId: null }],
        ['POST', '/api/charges/run', { invoiceId: '00000000-0000-4000-8000-000000000000' }],
      ] as const;

    it('refuses nobody signed in (401), staff without the claim and customers (403)', async () => {
      for (const [method, url, body] of routes()) {
        expect((await call(null, method, url, body)).statusCode, url).toBe(401);
        expect((await call(jars.coach, method, url, body)).statusCode, url).toBe(403);
        expect((await call(jars.customer, method, url, body)).statusCode, url).toBe(403);
        // Before the body: a body that would not parse still answers 403.
        if (method === 'POST') {
          expect((await call(jars.coach, method, url, { junk: true })).statusCode, url).toBe(403);
        }
      }
    });

    it('finds nothing of another organisation: its customer, its invoice (404)', async () => {
      expect(
        (await call(jars.otherOwner, 'GET', `/api/charges/customers/${rosterId}`)).statusCode,
      ).toBe(404);
      expect(
        (await call(jars.owner, 'GET', `/api/charges/customers/${otherRosterId}`)).statusCode,
      ).toBe(404);
      const card = await addCard(visa);
      const { invoiceId } = await total(card);
      const run = await call(jars.otherOwner, 'POST', '/api/charges/run', { invoiceId });
      expect(run.statusCode).toBe(404);
      // Another organisation's seller may not charge this customer's card to their own customer.
      const theirs = await call(jars.otherOwner, 'POST', '/api/catalogue/products', monthly);
      const foreign = await call(jars.otherOwner, 'POST', '/api/charges/total', {
        rosterId: otherRosterId,
        productId: theirs.json<{ id: string }>().id,
        paymentMethodId: card,
      });
      expect(foreign.statusCode).toBe(422);
      expect(JSON.stringify(foreign.json())).toContain('Choose a payment method of this customer.');
    });
  });
});
