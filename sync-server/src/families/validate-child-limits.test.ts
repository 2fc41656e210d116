import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../testing/auth-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { validateChildLimit } from './families.limits.ts';

describe.each(testDatabaseKinds)('validate-child limits on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  const validate = (rows: number, remoteAddress: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/create-account',
      payload: {
        action: 'validate-child',
        guardianEmail: uniqueEmail('parent'),
        children: Array.from({ length: rows }, (_, i) => ({
          firstName: `Kid${i}`,
          lastName: 'Lee',
          email: uniqueEmail('kid'),
        })),
      },
      remoteAddress,
    });

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it(`lets one address check ${validateChildLimit.limit} units in 15 minutes (one per call, one per child), then answers 429 with Retry-After`, async () => {
    const address = '203.0.113.40';
    const half = validateChildLimit.limit / 2 - 1; // two calls of this many children use it all
    expect((await validate(half, address)).statusCode).toBe(200);
    expect((await validate(half, address)).statusCode).toBe(200);
    const refused = await validate(1, address);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await validate(1, '203.0.113.41')).statusCode).toBe(200);
  });
});
