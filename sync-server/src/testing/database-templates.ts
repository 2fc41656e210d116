import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import { openDatabase } from '../db/open-database.ts';

/**
 * Migrated databases to copy (CI time, issue 13): every integration test gets a database of
 * its own, and running all migrations on each took seconds — most of the unit step. A test
 * run's global setup migrates one PostgreSQL database and one PGlite once; each test database
 * is then `CREATE DATABASE … TEMPLATE` (PostgreSQL) or a PGlite loaded from the dump. Both are
 * made fresh from the committed migrations on every run, so they cannot go stale; without them
 * (a script run outside vitest) test databases migrate from empty as before.
 *
 * Handed to the test processes through the environment, which forked workers inherit.
 */
export const PG_TEMPLATE_ENV = 'TEST_PG_TEMPLATE_DATABASE';
export const PGLITE_TEMPLATE_ENV = 'TEST_PGLITE_TEMPLATE_FILE';

export async function prepareDatabaseTemplates(
  options: { pglite: boolean } = { pglite: true },
): Promise<() => Promise<void>> {
  const cleanups: Array<() => Promise<void>> = [];
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `t_template_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${name}`);
    await admin.end();
    const templateUrl = new URL(url);
    templateUrl.pathname = `/${name}`;
    const template = await openDatabase({ databaseUrl: templateUrl.toString(), maxConnections: 1 });
    await template.close();
    process.env[PG_TEMPLATE_ENV] = name;
    cleanups.push(async () => {
      const cleanup = postgres(url, { max: 1, onnotice: () => {} });
      await cleanup.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    });
  }
  if (options.pglite) {
    const pglite = await openDatabase({ dataDir: null });
    const client = (pglite.db as unknown as { $client: PGlite }).$client;
    const dump = await client.dumpDataDir('none');
    await pglite.close();
    const file = path.join(
      tmpdir(),
      `pglite-template-${process.pid}-${randomBytes(3).toString('hex')}.tar`,
    );
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    process.env[PGLITE_TEMPLATE_ENV] = file;
    cleanups.push(async () => rmSync(file, { force: true }));
  }

  return async () => {
    for (const cleanup of cleanups) await cleanup();
  };
}

let pgliteTemplate: Blob | null | undefined;

/** This process's copy of the PGlite dump (read once), or null when there is none. */
export function pgliteTemplateBlob(): Blob | null {
  if (pgliteTemplate !== undefined) return pgliteTemplate;
  const file = process.env[PGLITE_TEMPLATE_ENV];
  try {
    pgliteTemplate = file ? new Blob([readFileSync(file)]) : null;
  } catch {
    pgliteTemplate = null;
  }
  return pgliteTemplate;
}

/** The migrated PostgreSQL database to copy, or null. */
export function pgTemplateName(): string | null {
  const name = process.env[PG_TEMPLATE_ENV];
  return name && /^t_template_\w+$/.test(name) ? name : null;
}
