import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { rosterItems, subscriptions } from '@platform/schema/db';
import { subscriptionsOverviewSchema } from '@platform/schema/payments/subscriptions-overview.zod';
import { addMembership, insertTestOrg, insertTestUser, logInAs } from '../testing/auth-fixtures.ts';
import type { CookieJar } from '../testing/cookie-jar.ts';
import { offerProduct, sellWithTestCard } from '../testing/payment-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

/**
 * The owner's Subscriptions overview (GET /api/subscriptions, /dashboard/org-subscription;
 * issue 15): staff who sell or keep the catalogue see their own organisation's subscriptions —
 * never another's — past due first, with the next charge; other staff and customers get 403.
 */
describe.each(testDatabaseKinds)('the subscriptions overview on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  const org = { a: '', b: '' };
  const jars = {} as Record<
    'ownerA' | 'ownerB' | 'cataloguer' | 'seller' | 'coach' | 'customer',
    CookieJar
  >;
  const sold = { a: [] as string[], b: [] as string[] };

  const overview = async (jar: CookieJar) => {
    const answer = await t.app.inject({
      method: 'GET',
      url: '/api/subscriptions',
      headers: jar.headers(),
    });
    expect(answer.statusCode, answer.body).toBe(200);
    return subscriptionsOverviewSchema.parse(answer.json());
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    org.a = (await insertTestOrg(t.db)).id;
    org.b = (await insertTestOrg(t.db)).id;
    const staff = async (orgId: string, claims?: string[]) => {
      const user = await insertTestUser(t.db);
      await addMembership(t.db, user.id, orgId, 'staff', claims);
      return { user, jar: (await logInAs(t.app, user.email!)).jar };
    };
    const ownerA = await staff(org.a);
    jars.ownerA = ownerA.jar;
    const ownerB = await staff(org.b);
    jars.ownerB = ownerB.jar;
    jars.cataloguer = (await staff(org.a, ['manage-products'])).jar;
    jars.seller = (await staff(org.a, ['manage-point-of-sale'])).jar;
    jars.coach = (await staff(org.a, ['view-customers', 'manage-schedule'])).jar;
    const customer = async (orgId: string, firstName: string) => {
      const user = await insertTestUser(t.db, { firstName });
      await addMembership(t.db, user.id, orgId, 'customer');
      await t.db.insert(rosterItems).values({
        orgId,
        userId: user.id,
        firstName,
        lastName: 'Member',
        email: user.email,
        updatedAt: new Date(),
      });
      return user;
    };
    const ann = await customer(org.a, 'Ann');
    const bob = await customer(org.a, 'Bob');
    const zoe = await customer(org.b, 'Zoe');
    jars.customer = (
      await logInAs(t.app, ann.email!, { profileType: 'use-customer', profileOrgId: org.a })
    ).jar;
    const sell = async (which: 'a' | 'b', sellerId: string, userId: string, name: string) => {
      const staffOf = { orgId: org[which], userId: sellerId };
      const product = await offerProduct(t.db, staffOf, name);
      const { subscriptionId } = await sellWithTestCard(t.db, staffOf, userId, product.id);
      sold[which].push(subscriptionId!);
      return subscriptionId!;
    };
    await sell('a', ownerA.user.id, ann.id, 'Unlimited');
    const late = await sell('a', ownerA.user.id, bob.id, 'Yoga');
    await sell('b', ownerB.user.id, zoe.id, 'Their membership');
    // Bob's renewal failed: he is listed first.
    await t.db.update(subscriptions).set({ status: 'past-due' }).where(eq(subscriptions.id, late));
  });
  afterAll(() => t.close());

  it('lists the organisation’s own subscriptions, past due first, with the next charge', async () => {
    const mine = await overview(jars.ownerA);
    expect(mine.processor).toBe('sandbox');
    expect(mine.truncated).toBe(false);
    expect(mine.subscriptions.map((s) => s.id).sort()).toEqual([...sold.a].sort());
    expect(mine.subscriptions.map((s) => [s.customerName, s.productName, s.status])).toEqual([
      ['Bob Member', 'Yoga', 'past-due'],
      ['Ann Member', 'Unlimited', 'active'],
    ]);
    expect(mine.subscriptions[1]).toMatchObject({
      amountMinor: 4_900,
      externalPayments: false,
      nextBillingDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      rosterId: expect.any(String),
    });
  });

  it('never shows another organisation’s subscriptions', async () => {
    const theirs = await overview(jars.ownerB);
    expect(theirs.subscriptions.map((s) => s.id)).toEqual(sold.b);
    for (const id of sold.a) expect(theirs.subscriptions.map((s) => s.id)).not.toContain(id);
  });

  it('is for staff who keep the catalogue or sell; others and customers get 403', async () => {
    expect((await overview(jars.cataloguer)).subscriptions).toHaveLength(2);
    expect((await overview(jars.seller)).subscriptions).toHaveLength(2);
    for (const jar of [jars.coach, jars.customer]) {
      const refused = await t.app.inject({
        method: 'GET',
        url: '/api/subscriptions',
        headers: jar.headers(),
      });
      expect(refused.statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/subscriptions' })).statusCode).toBe(401);
  });
});
