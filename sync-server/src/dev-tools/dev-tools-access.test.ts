import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { testConfig } from '../testing/test-app.ts';
import { createTestDatabase, testDatabaseKinds } from '../testing/test-database.ts';

const devPaths = [
  '/dev/mailbox',
  '/api/dev/mailbox',
  '/dev/notifications',
  '/api/dev/notifications',
];

// Whether the routes exist touches no database: one database (the faster kind) serves every app.
let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase(testDatabaseKinds[0]!);
});
afterAll(() => database.close());

/** The status of each development path on an app built from `env` (undefined: not set at all). */
async function devStatuses(
  env: Record<string, string | undefined>,
  headers: Record<string, string> = {},
) {
  const app = await buildApp({
    config: testConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'dev-')), ...env }),
    database,
  });
  try {
    const statuses = [];
    for (const url of devPaths)
      statuses.push((await app.inject({ method: 'GET', url, headers })).statusCode);
    return statuses;
  } finally {
    await app.close();
  }
}
const none = devPaths.map(() => 404);
const all = devPaths.map(() => 200);

describe('development tools fail closed', () => {
  it('exist only when turned on, outside production, on a loopback host', async () => {
    expect(await devStatuses({ DEV_TOOLS: '1' })).toEqual(all);
    expect(await devStatuses({ DEV_TOOLS: '1', NODE_ENV: 'development', HOST: '::1' })).toEqual(
      all,
    );
  });

  it('do not exist because NODE_ENV is unset, nor in tests or development unless turned on', async () => {
    expect(await devStatuses({ NODE_ENV: undefined })).toEqual(none);
    expect(await devStatuses({ NODE_ENV: 'development' })).toEqual(none);
    expect(await devStatuses({})).toEqual(none);
    expect(await devStatuses({ DEV_TOOLS: '0' })).toEqual(none);
  });

  it('do not exist in production, nor on a server listening on every address', async () => {
    expect(await devStatuses({ NODE_ENV: 'production' })).toEqual(none);
    expect(await devStatuses({ HOST: '0.0.0.0' })).toEqual(none);
  });

  it('answer only requests made on this machine to a loopback name (no DNS rebinding, no proxy)', async () => {
    expect(await devStatuses({ DEV_TOOLS: '1' }, { host: 'evil.example' })).toEqual(none);
    expect(
      await devStatuses(
        { DEV_TOOLS: '1' },
        { host: 'localhost:3000', 'x-forwarded-for': '203.0.113.7' },
      ),
    ).toEqual(none);
    expect(
      await devStatuses(
        { DEV_TOOLS: '1' },
        { host: '127.0.0.1:3000', 'x-forwarded-for': '127.0.0.1, 203.0.113.7' },
      ),
    ).toEqual(none);
  });

  it('refuse to start when turned on where they must not be, saying why', () => {
    const problem = (env: Record<string, string>) => {
      try {
        loadConfig({
          SESSION_SECRET: 'x'.repeat(40),
          DATA_DIR: mkdtempSync(path.join(tmpdir(), 'dev-')),
          ...env,
        });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error('expected a ConfigError');
    };
    expect(problem({ DEV_TOOLS: '1' })).toMatch(
      /^ {2}DEV_TOOLS: needs NODE_ENV=development \(or test\) set explicitly$/m,
    );
    expect(problem({ DEV_TOOLS: '1', NODE_ENV: 'production' })).toMatch(
      /^ {2}DEV_TOOLS: needs NODE_ENV=development \(or test\), not production$/m,
    );
    expect(problem({ DEV_TOOLS: '1', NODE_ENV: 'development', HOST: '0.0.0.0' })).toMatch(
      /^ {2}DEV_TOOLS: needs HOST to be a loopback address \(127\.0\.0\.1, ::1 or localhost\), not 0\.0\.0\.0$/m,
    );
    expect(
      problem({ DEV_TOOLS: '1', NODE_ENV: 'development', PUBLIC_URL: 'https://app.example.com' }),
    ).toMatch(/^ {2}DEV_TOOLS: needs PUBLIC_URL on a loopback host, not app\.example\.com$/m);
    expect(problem({ DEV_TOOLS: 'yes', NODE_ENV: 'development' })).toMatch(/^ {2}DEV_TOOLS: /m);
  });
});
