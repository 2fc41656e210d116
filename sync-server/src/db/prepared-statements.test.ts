import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizations } from '@platform/schema/db';
import { rowsOf, type Database } from './open-database.ts';
import { createTestDatabase } from '../testing/test-database.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Decision 0074: inside a transaction small parameterised statements run prepared (one round
 * trip each); on the pool they do not, so a pooled statement never queues behind another on a
 * busy connection. PostgreSQL only (PGlite has no pool and no round trips).
 */
describe.skipIf(!process.env.DATABASE_URL)('prepared statements on PostgreSQL', () => {
  let database: Database;
  let orgId: string;

  beforeAll(async () => {
    database = await createTestDatabase('postgres', { maxConnections: 3 });
    const [org] = await database.db
      .insert(organizations)
      .values({ label: 'Prepared' })
      .returning({ id: organizations.id });
    orgId = org!.id;
  });
  afterAll(() => database.close());

  it('prepares a transaction’s small statements, and plans each for its own values', async () => {
    const seen = await database.db.transaction(async (tx) => {
      await tx.select().from(organizations).where(eq(organizations.id, orgId));
      return rowsOf<{ prepared: number; mode: string }>(
        await tx.execute(sql`select (select count(*)::int from pg_prepared_statements
          where statement like ${'%from "organizations"%'}) as prepared,
          current_setting('plan_cache_mode') as mode`),
      )[0];
    });
    expect(seen?.prepared).toBeGreaterThan(0);
    expect(seen?.mode).toBe('force_custom_plan');
  });

  it('lets a transaction’s own pool statement through while the pool is full of statements waiting on it', async () => {
    // The import writer's pattern (imports.service.ts): its transaction reports progress on
    // the pool. With the pool's statements prepared, postgres.js queued that report behind a
    // statement waiting for the transaction's own lock — a deadlock PostgreSQL cannot see.
    const rename = (name: string) =>
      database.db.update(organizations).set({ label: name }).where(eq(organizations.id, orgId));
    // Every connection runs each statement a few times first (a prepared one only pipelines
    // once its connection has prepared it).
    for (let i = 0; i < 3; i++)
      await Promise.all(
        [0, 1, 2].map(() =>
          Promise.all([rename('warm'), database.db.execute(sql`select pg_sleep(${0.01})`)]),
        ),
      );
    const started = Date.now();
    const transaction = database.db.transaction(async (tx) => {
      await tx.update(organizations).set({ label: 'locked' }).where(eq(organizations.id, orgId));
      const waiting = rename('after the transaction');
      waiting.catch(() => {});
      await sleep(50);
      const busy = database.db.execute(sql`select pg_sleep(${0.5})`);
      busy.catch(() => {});
      await sleep(50);
      await database.db.execute(sql`select ${'progress'}::text as report`);
      return Date.now() - started;
    });
    const outcome = await Promise.race([
      transaction.then((ms) => `done in ${ms} ms`),
      sleep(8_000).then(() => 'held up'),
    ]);
    expect(outcome).toMatch(/^done/);
  }, 30_000);
});
