import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../config.ts';
import { buildApp } from '../app.ts';
import { createTestDatabase, type TestDatabaseOptions } from './test-database.ts';
import type { MailTransport } from '../adapters/mailer/port.ts';
import type { JobQueueSettings } from '../jobs/job-queue.ts';
import type { Notifier } from '../adapters/notifier/port.ts';
import type { Db } from '../db/open-database.ts';
import type { JWTVerifyGetKey } from 'jose';

/** The configuration of test apps, with these variables set, or unset (undefined). */
export function testConfig(overrides: Record<string, string | undefined> = {}) {
  const env = Object.entries({
    NODE_ENV: 'test',
    SESSION_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    PWA_DIST: '/nonexistent-pwa-dist',
    PUBLIC_URL: 'http://localhost:3000',
    ...overrides,
  }).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return loadConfig(Object.fromEntries(env));
}

/** Jobs run as in production, but retried after about a second and given back faster on close. */
export const testJobSettings: Partial<JobQueueSettings> = {
  pollingIntervalSeconds: 0.5,
  retryDelaySeconds: 1,
  stopTimeoutMs: 2_000,
};

/** The real app on a fresh database of the given kind, for `inject` tests. */
export async function createTestApp(
  kind: 'postgres' | 'pglite',
  overrides: {
    /** Variables to set, or to leave unset (undefined). */
    env?: Record<string, string | undefined>;
    mailTransport?: MailTransport;
    jobs?: Partial<JobQueueSettings>;
    /** Built on the test's database (adapters read the device registrations). */
    notifier?: (db: Db) => Notifier;
    googleKeys?: JWTVerifyGetKey;
    database?: TestDatabaseOptions;
  } = {},
) {
  const database = await createTestDatabase(kind, overrides.database);
  const config = testConfig(overrides.env);
  const app = await buildApp({
    config,
    database,
    ...(overrides.mailTransport ? { mailTransport: overrides.mailTransport } : {}),
    jobs: { ...testJobSettings, ...overrides.jobs },
    ...(overrides.notifier ? { notifier: overrides.notifier(database.db) } : {}),
    ...(overrides.googleKeys ? { googleKeys: overrides.googleKeys } : {}),
  });
  await app.ready();
  return {
    app,
    db: database.db,
    /** The database itself, for tests that take it away (outages). */
    database,
    /** The PostgreSQL database's URL (PostgreSQL only), for a second server on the same data. */
    databaseUrl: database.url,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/** Listens on a free loopback port (for tests that need real HTTP: streams, other processes). */
export async function listenOnLoopback(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the app is not listening on a port');
  return `http://127.0.0.1:${address.port}`;
}
