import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { openDatabase, type Database } from '../db/open-database.ts';

/**
 * The databases integration tests run on: always PGlite (in memory), and the real PostgreSQL
 * when DATABASE_URL is set (CI always sets it). Each call gets a database of its own.
 */
export const testDatabaseKinds: Array<'postgres' | 'pglite'> = process.env.DATABASE_URL ? ['postgres', 'pglite'] : ['pglite'];

export async function createTestDatabase(
  kind: 'postgres' | 'pglite',
  options: { maxConnections?: number } = {},
): Promise<Database & { url?: string }> {
  if (kind === 'pglite') return openDatabase({ dataDir: null });
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required for PostgreSQL tests');
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: dbUrl.toString(), maxConnections: options.maxConnections ?? 5 });
  return {
    ...database,
    url: dbUrl.toString(),
    close: async () => {
      await database.close();
      const cleanup = postgres(url, { max: 1, onnotice: () => {} });
      await cleanup.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
