import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestDatabase, testDatabaseKinds } from '../sync-server/src/testing/test-database.ts';
import { seedDemo } from './seed.ts';

describe.each(testDatabaseKinds)('seedDemo on %s', (kind) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());

  it('seeds the demo organisations once, and a second run changes nothing', async () => {
    const first = await seedDemo(database.db);
    expect(first.created).toBe(true);
    const second = await seedDemo(database.db);
    expect(second.created).toBe(false);
    expect(second.seed).toEqual(first.seed);
    const count = await database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from users`,
    );
    const rows = Array.isArray(count) ? count : (count as { rows: Array<{ n: number }> }).rows;
    expect(rows[0]?.n).toBe(6);
    const roster = await database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from roster_items`,
    );
    expect(
      (Array.isArray(roster) ? roster : (roster as { rows: Array<{ n: number }> }).rows)[0]?.n,
    ).toBe(2);
    // The demo sells something from the first start (issue 15), each product at the sandbox.
    const offered = await database.db.execute<{ n: number; at: number }>(
      sql`select count(*)::int as n, count(processor_product_id)::int as at from products`,
    );
    const products = (
      Array.isArray(offered)
        ? offered
        : (offered as { rows: Array<{ n: number; at: number }> }).rows
    )[0];
    expect(products).toEqual({ n: 3, at: 3 });
  });
});
