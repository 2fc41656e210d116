import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase, type Database } from '../db/open-database.ts';
import { createTestApp, listenOnLoopback } from '../testing/test-app.ts';
import { seedSyncOrg, timeEntry } from '../testing/sync-fixtures.ts';
import { changeOf, openSse } from '../testing/sse-client.ts';

// A latency bound: runs in the serial step, because other files' load beside it would make it
// lie. (Before decision 0076 another file's open transaction, in its own database, also held
// back the hub's visibility bound.)
// Guarantee 6: two server processes on one PostgreSQL behave as one.
describe.runIf(process.env.DATABASE_URL)('two servers on one PostgreSQL', () => {
  let first: Awaited<ReturnType<typeof createTestApp>>;
  let secondDatabase: Database;
  let second: FastifyInstance;
  let org: Awaited<ReturnType<typeof seedSyncOrg>>;

  beforeAll(async () => {
    first = await createTestApp('postgres');
    secondDatabase = await openDatabase({ databaseUrl: first.databaseUrl, maxConnections: 3 });
    const config = loadConfig({
      NODE_ENV: 'test',
      SESSION_SECRET: 'test-secret-test-secret-test-secret-0123456789',
      PWA_DIST: '/nonexistent',
    });
    second = await buildApp({ config, database: secondDatabase });
    org = await seedSyncOrg(first.app, first.db);
  });
  afterAll(async () => {
    await second.close();
    await secondDatabase.close();
    await first.close();
  });

  it('carries a write on one server to a live client of the other within a second', async () => {
    const base = await listenOnLoopback(second);
    const stream = await openSse(
      `${base}/api/sync/stream`,
      org.manager.jar.headers() as Record<string, string>,
    );
    try {
      await stream.next((e) => e.event === 'resync');
      const started = Date.now();
      const res = await first.app.inject({
        method: 'POST',
        url: '/api/sync/time-entries/push',
        headers: org.manager.jar.headers(),
        payload: [
          { assumedMasterState: null, newDocumentState: timeEntry(org.org.id, org.manager.id) },
        ],
      });
      expect(res.statusCode).toBe(200);
      await stream.next(changeOf('time-entries'), 1000);
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      stream.close();
    }
  });
});
