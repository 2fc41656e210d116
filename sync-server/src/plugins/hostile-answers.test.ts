// Each `it` is one break the second adversarial review (2026-11-24) found against a running
// server; each failed before its fix.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMembership,
  insertTestOrg,
  insertTestUser,
  linkChild,
  logInAs,
} from '../testing/auth-fixtures.ts';
import type { CookieJar } from '../testing/cookie-jar.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

/** What an answer must never carry: the database's own words, the query, its parameters. */
const internals = /Failed query|insert into|params:|returning|DrizzleQueryError/i;

describe.each(testDatabaseKinds)('hostile input answered safely on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let owner: CookieJar; // staff of org A with every claim
  let otherOwner: CookieJar; // staff of org B with every claim
  let parent: CookieJar; // customer of org A with a confirmed child
  let childId: string;
  let victim: { id: string; email: string | null }; // a customer of org A only

  beforeAll(async () => {
    t = await createTestApp(kind);
    const orgA = await insertTestOrg(t.db);
    const orgB = await insertTestOrg(t.db);
    const people = {
      owner: await insertTestUser(t.db),
      otherOwner: await insertTestUser(t.db),
      parent: await insertTestUser(t.db),
      victim: await insertTestUser(t.db),
    };
    const child = await insertTestUser(t.db, { email: null, withPassword: false });
    childId = child.id;
    victim = people.victim;
    await addMembership(t.db, people.owner.id, orgA.id, 'staff');
    await addMembership(t.db, people.otherOwner.id, orgB.id, 'staff');
    await addMembership(t.db, people.parent.id, orgA.id, 'customer');
    await addMembership(t.db, people.victim.id, orgA.id, 'customer');
    await linkChild(t.db, people.parent.id, child.id, orgA.id);
    owner = (await logInAs(t.app, people.owner.email!)).jar;
    otherOwner = (await logInAs(t.app, people.otherOwner.email!)).jar;
    parent = (
      await logInAs(t.app, people.parent.email!, {
        profileType: 'use-customer',
        profileOrgId: orgA.id,
      })
    ).jar;
  });
  afterAll(() => t.close());

  it('F1: /auth/login with a body that is not JSON or a form is a 4xx, not 500', async () => {
    for (const headers of [{ 'content-type': 'text/plain' }, {}]) {
      const answer = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        headers,
        payload: headers['content-type' as never] ? '{"identifier":"a@b.c","password":"x"}' : '',
      });
      expect(answer.statusCode, answer.body).toBeGreaterThanOrEqual(400);
      expect(answer.statusCode, answer.body).toBeLessThan(500);
    }
  });

  it('F2: a coupon whose redemption limit does not fit an integer column is 400, not 500', async () => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/catalogue/coupons',
      headers: owner.headers(),
      payload: {
        name: 'Too many',
        type: 'percentage',
        amount: 10,
        numberOfRedemptions: 2_147_483_648,
        appliesToProductIds: [],
        duration: { durationType: 'once' },
      },
    });
    expect(answer.statusCode, answer.body).toBe(400);
  });

  it('F3: text the database cannot store answers 400 without the query and its parameters', async () => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/catalogue/products',
      headers: owner.headers(),
      payload: { name: 'a\u0000b', type: 'one-time', schedule: 'one-time', priceMinor: 100 },
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.body).not.toMatch(internals);
  });

  it("F3b: another organisation's staff cannot learn a person's account id by adding their address", async () => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/crm/customers',
      headers: otherOwner.headers(),
      payload: {
        customerEmail: victim.email,
        customerFirstName: 'A\u0000',
        customerLastName: 'B',
        sendInviteEmails: false,
      },
    });
    expect(answer.statusCode).toBeLessThan(500);
    expect(answer.body).not.toContain(victim.id);
    expect(answer.body).not.toMatch(internals);
  });

  it('F3c: add-guardian answers the same for an address with and without an account', async () => {
    const add = (email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/guardians',
        headers: parent.headers(),
        payload: {
          action: 'add-guardian',
          userId: childId,
          signupDto: { firstName: 'A\u0000', lastName: 'B', email },
        },
      });
    const existing = await add(victim.email!);
    const unknown = await add('nobody-at-all@example.test');
    expect(existing.body).not.toContain(victim.id);
    expect(existing.body).not.toMatch(internals);
    expect(existing.statusCode).toBe(unknown.statusCode);
    expect(existing.json()).toEqual(unknown.json());
  });
});
