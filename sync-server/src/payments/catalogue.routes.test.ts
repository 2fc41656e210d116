import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productMessages } from '@platform/schema/payments/products.zod';
import { catalogueResponseSchema } from '@platform/schema/payments/catalogue.zod';
import { addMembership, insertTestOrg, insertTestUser, logInAs } from '../testing/auth-fixtures.ts';
import type { CookieJar } from '../testing/cookie-jar.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

const monthly = { name: 'Unlimited', type: 'recurring', schedule: 'month', priceMinor: 9_900 };

/**
 * The catalogue routes: only staff of the organisation with manage-products read or change it;
 * another organisation's staff find nothing of it (404), staff without the claim and customers
 * are refused (403), nobody signed in gets 401 — each before the body is read.
 */
describe.each(testDatabaseKinds)('the catalogue routes on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  const jars: Record<'owner' | 'coach' | 'customer' | 'otherOwner', CookieJar> = {} as never;
  let productId: string;

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
    await addMembership(t.db, people.owner.id, org.id, 'staff');
    await addMembership(t.db, people.coach.id, org.id, 'staff', ['manage-own-time-tracking']);
    await addMembership(t.db, people.customer.id, org.id, 'customer');
    await addMembership(t.db, people.otherOwner.id, other.id, 'staff');
    for (const [name, person] of Object.entries(people)) {
      const view = name === 'customer' ? { profileType: 'use-customer', profileOrgId: org.id } : {};
      jars[name as keyof typeof jars] = (await logInAs(t.app, person.email!, view)).jar;
    }
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/catalogue/products',
      payload: monthly,
      headers: jars.owner.headers(),
    });
    expect(created.statusCode).toBe(201);
    productId = created.json().id;
  });
  afterAll(() => t.close());

  const call = (
    jar: CookieJar | null,
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: unknown,
  ) =>
    t.app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
      ...(jar ? { headers: jar.headers() } : {}),
    });

  it('lets the owner read the catalogue, with the sandbox named', async () => {
    const answer = await call(jars.owner, 'GET', '/api/catalogue');
    expect(answer.statusCode).toBe(200);
    const catalogue = catalogueResponseSchema.parse(answer.json());
    expect(catalogue.processor).toBe('sandbox');
    expect(catalogue.products.map((p) => p.id)).toEqual([productId]);
    expect(catalogue.products[0]?.stripeProductId).toMatch(/^prod_sandbox_/);
  });

  it('answers a bad product with the field and the reason', async () => {
    const answer = await call(jars.owner, 'POST', '/api/catalogue/products', {
      ...monthly,
      schedule: 'one-time',
    });
    expect(answer.statusCode).toBe(400);
    expect(JSON.stringify(answer.json())).toContain(productMessages.scheduleMismatch);
  });

  it.each([
    ['nobody signed in', null, 401],
    ['a coach without manage-products', 'coach', 403],
    ['a customer', 'customer', 403],
  ] as const)('refuses %s, before reading the body', async (_who, jarName, status) => {
    const jar = jarName ? jars[jarName] : null;
    for (const [method, url, payload] of [
      ['GET', '/api/catalogue', undefined],
      ['POST', '/api/catalogue/products', { malformed: true }],
      ['PUT', `/api/catalogue/products/${productId}`, monthly],
      ['POST', `/api/catalogue/products/${productId}/archive`, {}],
      ['POST', '/api/catalogue/coupons', ['not', 'an', 'object']],
    ] as const) {
      expect((await call(jar, method, url, payload)).statusCode, `${method} ${url}`).toBe(status);
    }
  });

  it('lets another organisation’s owner find nothing of it', async () => {
    const catalogue = (await call(jars.otherOwner, 'GET', '/api/catalogue')).json();
    expect(catalogue.products).toEqual([]);
    const changed = await call(
      jars.otherOwner,
      'PUT',
      `/api/catalogue/products/${productId}`,
      monthly,
    );
    expect(changed.statusCode).toBe(404);
    const archived = await call(
      jars.otherOwner,
      'POST',
      `/api/catalogue/products/${productId}/archive`,
      {},
    );
    expect(archived.statusCode).toBe(404);
    const coupon = await call(jars.otherOwner, 'POST', '/api/catalogue/coupons', {
      name: 'Steal',
      type: 'percentage',
      amount: 50,
      numberOfRedemptions: null,
      appliesToProductIds: [productId],
      duration: { durationType: 'forever' },
    });
    expect(coupon.statusCode).toBe(422);
  });
});
