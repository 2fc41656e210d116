import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrationsFolder, rowsOf, type Db } from './open-database.ts';

/** The newest committed migration: drizzle records its `when` as `created_at` once applied. */
const journal = JSON.parse(
  readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8'),
) as { entries: Array<{ when: number; tag: string }> };
const newestMigration = Math.max(...journal.entries.map((entry) => entry.when));

/** A readiness probe must answer before the orchestrator gives up on it. */
const CHECK_TIMEOUT_MS = 2_000;

export type Readiness = { ready: true } | { ready: false; reason: string };

/** Whether the database answers, within a bound, and holds every committed migration. */
export async function checkReadiness(db: Db): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Readiness>((resolve) => {
    timer = setTimeout(
      () => resolve({ ready: false, reason: 'the database did not answer in time' }),
      CHECK_TIMEOUT_MS,
    );
  });
  const check = db
    .execute(
      sql`select coalesce(max(created_at), 0)::text as newest from drizzle.__drizzle_migrations`,
    )
    .then((result): Readiness => {
      const applied = Number(rowsOf<{ newest: string }>(result)[0]?.newest ?? 0);
      return applied >= newestMigration
        ? { ready: true }
        : { ready: false, reason: 'database migrations are not all applied' };
    })
    .catch((): Readiness => ({ ready: false, reason: 'the database is unreachable' }));
  try {
    return await Promise.race([check, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
