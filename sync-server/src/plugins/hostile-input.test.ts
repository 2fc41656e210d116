import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { seedSyncOrg } from '../testing/sync-fixtures.ts';

// Issue 11: input a client can send must answer 4xx, never 5xx, and never be stored as
// something other than what was sent.
describe.each(testDatabaseKinds)('hostile input on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;
  const send = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: string | Buffer) =>
    t.app.inject({
      method,
      url,
      headers: { ...a.manager.jar.headers(), 'content-type': 'application/json' },
      ...(payload === undefined ? {} : { payload }),
    });

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await seedSyncOrg(t.app, t.db);
  });
  afterAll(() => t.close());

  it('answers collection names that are Object.prototype keys with 404', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect((await send('GET', `/api/sync/${name}/pull`)).statusCode, name).toBe(404);
      expect((await send('POST', `/api/sync/${name}/push`, '[]')).statusCode, name).toBe(404);
    }
  });
});
