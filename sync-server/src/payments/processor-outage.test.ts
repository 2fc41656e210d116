import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processorUnavailableMessage } from '../adapters/payments/stripe.ts';
import { addMembership, insertTestOrg, insertTestUser, logInAs } from '../testing/auth-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

/**
 * With Stripe configured but out of reach, a call that needs it answers 503 with a retry hint
 * and says so — an outage, never a 500 (adversarial review of issue 15).
 */
describe.each(testDatabaseKinds)('a payment processor out of reach, on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp(kind, {
      env: {
        STRIPE_SECRET_KEY: 'sk_test_unreachable',
        STRIPE_WEBHOOK_SECRET: 'whsec_test_unreachable',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_wire',
        // Nothing listens on port 1.
        STRIPE_API_BASE: 'http://127.0.0.1:1',
      },
    });
  });
  afterAll(() => t.close());

  it('answers 503 with Retry-After when creating a product needs Stripe', async () => {
    const org = await insertTestOrg(t.db);
    const owner = await insertTestUser(t.db);
    await addMembership(t.db, owner.id, org.id, 'staff');
    const { jar } = await logInAs(t.app, owner.email!);
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/catalogue/products',
      headers: jar.headers(),
      payload: { name: 'Unlimited', type: 'recurring', schedule: 'month', priceMinor: 9_900 },
    });
    expect(answer.statusCode).toBe(503);
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    expect(answer.json()).toMatchObject({ message: processorUnavailableMessage });
  });
});
