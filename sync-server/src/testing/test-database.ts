import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { openDatabase, type Database } from '../db/open-database.ts';
import { pgTemplateName, pgliteTemplateBlob } from './database-templates.ts';

/**
 * The databases integration tests run on: always PGlite (in memory), and the real PostgreSQL
 * when DATABASE_URL is set (CI always sets it). Each call gets a database of its own.
 */
export const testDatabaseKinds: Array<'postgres' | 'pglite'> = process.env.DATABASE_URL ? ['postgres', 'pglite'] : ['pglite'];

export type TestDatabaseOptions = {
  maxConnections?: number;
  /**
   * Settings of the database other than the defaults (`ALTER DATABASE … SET timezone = …`), as
   * an operator may have configured them. PGlite starts with its defaults whatever its database
   * says, so there they are set on its one session after opening instead — which also
   * overrides the app's own settings, so what is read must not depend on them there.
   */
  settings?: Record<string, string>;
};

/** `name = 'value'` for SET and ALTER DATABASE … SET (test constants; quotes doubled anyway). */
const assignments = (settings: Record<string, string> = {}) =>
  Object.entries(settings).map(
    ([name, value]) => `${name.replace(/\W/g, '')} = '${value.replaceAll("'", "''")}'`,
  );

export async function createTestDatabase(
  kind: 'postgres' | 'pglite',
  options: TestDatabaseOptions = {},
): Promise<Database & { url?: string }> {
  if (kind === 'pglite') {
    const template = pgliteTemplateBlob();
    const database = await openDatabase({
      dataDir: null,
      ...(template ? { pgliteTemplate: template } : {}),
    });
    for (const assignment of assignments(options.settings))
      await database.db.execute(sql.raw(`SET ${assignment}`));
    return database;
  }
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required for PostgreSQL tests');
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  const template = pgTemplateName();
  await admin.unsafe(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  for (const assignment of assignments(options.settings))
    await admin.unsafe(`ALTER DATABASE ${name} SET ${assignment}`);
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
