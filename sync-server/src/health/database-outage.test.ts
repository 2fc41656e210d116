import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/postgres-js';
import { afterEach, describe, expect, it } from 'vitest';
import { allTables } from '@platform/schema/db';
import { buildApp } from '../app.ts';
import type { Database, Db } from '../db/open-database.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { insertTestUser, logInAs, TEST_PASSWORD } from '../testing/auth-fixtures.ts';

type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/** A request that needs the database: log-in reads the person. */
const logIn = (t: Pick<TestApp, 'app'>, identifier = 'nobody@example.test') =>
  t.app.inject({
    method: 'POST',
    url: '/auth/login',
    payload: { identifier, password: TEST_PASSWORD },
    remoteAddress: '10.9.8.7',
  });

function expectRetryLater(res: { statusCode: number; headers: Record<string, unknown> }) {
  expect(res.statusCode).toBe(503);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
}

// Issue 11: the database going away is "try again shortly" (503 + Retry-After), not a 500;
// readiness says so, liveness does not depend on it.
describe.each(testDatabaseKinds)('a database outage on %s', (kind) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.app.close().catch(() => {});
    await t?.database.close().catch(() => {});
    t = undefined;
  });

  it('answers ready while the database is there, 503 once it is gone; /healthz stays 200', async () => {
    t = await createTestApp(kind);
    const ready = await t.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ ok: true });

    // The pool is closed under the app (postgres.js CONNECTION_ENDED, PGlite 'PGlite is closed').
    await t.database.close();
    expectRetryLater(await logIn(t));
    expectRetryLater(await t.app.inject({ url: '/readyz' }));
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
  });

  it('is not ready while migrations are missing', async () => {
    t = await createTestApp(kind);
    await t.database.db.execute(
      'delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)',
    );
    expectRetryLater(await t.app.inject({ url: '/readyz' }));
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
  });
});

describe.runIf(testDatabaseKinds.includes('postgres'))('PostgreSQL going away', () => {
  let t: TestApp | undefined;
  let other: Awaited<ReturnType<typeof buildApp>> | undefined;
  afterEach(async () => {
    await other?.close();
    await t?.close();
    other = undefined;
    t = undefined;
  });

  it('answers 503 to a request whose connection the server terminates (57P01), then recovers', async () => {
    t = await createTestApp('postgres');
    const user = await insertTestUser(t.db);
    await logInAs(t.app, user.email ?? '');
    const admin = postgres(t.databaseUrl ?? '', { max: 1, onnotice: () => {} });
    try {
      // Hold the users table so that log-in waits on it, then terminate the waiting backend.
      const held = admin.begin(async (tx) => {
        await tx`lock table users in access exclusive mode`;
        const pending = logIn(t!, user.email ?? '');
        for (let i = 0; i < 100; i++) {
          const [waiting] = await tx`select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`;
          if (waiting?.n) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        await tx`select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`;
        return pending;
      });
      expectRetryLater(await held);
      // The pool connects again: the next request is served.
      expect((await logIn(t, user.email ?? '')).statusCode).toBe(200);
    } finally {
      await admin.end();
    }
  });

  it('answers 503 and is not ready when nothing listens at the database address', async () => {
    t = await createTestApp('postgres');
    const closed = new URL(t.databaseUrl ?? '');
    closed.port = '1'; // nothing listens there: ECONNREFUSED
    const client = postgres(closed.toString(), { max: 1, connect_timeout: 2, onnotice: () => {} });
    const database: Database = {
      db: drizzle(client, { schema: allTables }) as unknown as Db,
      kind: 'postgres',
      // LISTEN and the job queue would fail the same way at start (a server would not start
      // at all); the outage under test is about requests, so this app has no queue.
      listen: async () => async () => {},
      executeSql: t.database.executeSql,
      executorIn: t.database.executorIn,
      pagesOf: null,
      close: () => client.end(),
    };
    other = await buildApp({ config: t.app.config, database, jobs: { enabled: false } });
    await other.ready();
    expectRetryLater(await logIn({ app: other }));
    expectRetryLater(await other.inject({ url: '/readyz' }));
    expect((await other.inject({ url: '/healthz' })).statusCode).toBe(200);
  });
});
