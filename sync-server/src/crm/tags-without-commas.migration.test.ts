import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterItems } from '@platform/schema/db';
import { rosterItemDocSchema } from '@platform/schema/roster/roster-item.zod';
import { insertTestOrg, insertTestUser, uniqueEmail } from '../testing/auth-fixtures.ts';
import { insertRosterItem } from '../testing/sync-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { rosterItemToDoc } from './roster.repository.ts';

const migration = readFileSync(
  new URL('../../../schema/drizzle/0017_tags_without_commas.sql', import.meta.url),
  'utf8',
);

describe.each(testDatabaseKinds)('migration 0017 (tags without commas) on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('splits stored tags at their commas, so the row reads as a document again', async () => {
    const org = await insertTestOrg(t.db);
    const person = await insertTestUser(t.db, { email: uniqueEmail('tagged') });
    const item = await insertRosterItem(t.db, org.id, person);
    await t.db
      .update(rosterItems)
      .set({ tags: ['vip', 'am, vip ,pm', ' , '] })
      .where(eq(rosterItems.id, item.id));

    await t.db.execute(sql.raw(migration));

    const [row] = await t.db.select().from(rosterItems).where(eq(rosterItems.id, item.id));
    expect(row?.tags).toEqual(['vip', 'am', 'pm']);
    expect(row!.txid).not.toBe(item.txid);
    expect(rosterItemDocSchema.safeParse(rosterItemToDoc(row!)).success).toBe(true);
  });
});
