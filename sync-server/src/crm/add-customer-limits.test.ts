import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMembership, insertTestUser, logInAs, uniqueEmail } from '../testing/auth-fixtures.ts';
import type { CookieJar } from '../testing/cookie-jar.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { seedFamilies } from '../families/families.fixtures.ts';
import { addCustomerLimits } from './crm.limits.ts';

const { perStaff, perAddress } = addCustomerLimits;

describe.each(testDatabaseKinds)('add-customer limits on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let addresses = 0;
  const freshAddress = () => `198.51.100.${++addresses}`;
  const add = (jar: CookieJar, remoteAddress = freshAddress()) =>
    t.app.inject({
      method: 'POST',
      url: '/api/crm/customers',
      headers: jar.headers(),
      payload: { customerEmail: uniqueEmail('new'), externalPayments: false },
      remoteAddress,
    });
  /** Another staff member of the organisation, signed in to it. */
  const newStaff = async (orgId: string) => {
    const user = await insertTestUser(t.db);
    await addMembership(t.db, user.id, orgId, 'staff');
    return (await logInAs(t.app, user.email!, { profileType: 'use-org', profileOrgId: orgId })).jar;
  };

  /**
   * Adds until refused: the budget is earned back steadily (one add per perMs / limit), so a
   * slow machine's run earns back a few while it adds — what was admitted must be the limit, plus
   * at most what the run's own time earned back.
   */
  const addUntilRefused = async (
    rule: { limit: number; perMs: number },
    next: () => Promise<Awaited<ReturnType<typeof add>>>,
  ) => {
    const started = Date.now();
    let admitted = 0;
    for (;;) {
      const answer = await next();
      if (answer.statusCode === 429) {
        const earned = Math.floor((Date.now() - started) / (rule.perMs / rule.limit)) + 1;
        expect(admitted).toBeGreaterThanOrEqual(rule.limit);
        expect(admitted).toBeLessThanOrEqual(rule.limit + earned);
        return answer;
      }
      expect(answer.statusCode).toBe(201);
      admitted++;
      expect(admitted, 'never refused').toBeLessThanOrEqual(rule.limit * 2);
    }
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it(`lets one staff member add ${perStaff.limit} customers in 10 minutes, then answers 429 with Retry-After`, async () => {
    const f = await seedFamilies(t.app, t.db);
    const refused = await addUntilRefused(perStaff, () => add(f.manager.jar));
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await add(await newStaff(f.org.id))).statusCode).toBe(201);
    // 30 sequential adds plus a family seeded with hashed passwords: 10 s alone, and near 30 s
    // beside the other files on two busy cores.
  }, 120_000);

  it(`lets one address add ${perAddress.limit} customers in 10 minutes, whoever is signed in`, async () => {
    const f = await seedFamilies(t.app, t.db);
    const address = '203.0.113.60';
    const staff = [f.manager.jar, await newStaff(f.org.id), await newStaff(f.org.id)];
    expect(perAddress.limit).toBeLessThanOrEqual(staff.length * perStaff.limit);
    let turn = 0;
    const refused = await addUntilRefused(perAddress, () => add(staff[turn++ % 3]!, address));
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await add(staff[0]!)).statusCode).toBe(201);
  }, 120_000);
});
