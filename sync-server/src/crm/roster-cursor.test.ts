import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterItems } from '@platform/schema/db';
import type { RosterSearchResponse } from '@platform/schema/crm/crm.zod';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { seedSyncOrg } from '../testing/sync-fixtures.ts';
import { insertTestUser } from '../testing/auth-fixtures.ts';
import type { Db } from '../db/open-database.ts';
import type { CookieJar } from '../testing/cookie-jar.ts';

const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function addCustomers(db: Db, orgId: string, lastNames: string[]) {
  for (const lastName of lastNames) {
    const user = await insertTestUser(db, { lastName });
    await db.insert(rosterItems).values({
      orgId,
      userId: user.id,
      firstName: 'Pat',
      lastName,
      email: user.email,
      updatedAt: new Date(),
    });
  }
}

// Issue 11: the roster search cursor is opaque; whatever a client makes of it answers 400.
describe.each(testDatabaseKinds)('roster search cursors on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;
  let b: Awaited<ReturnType<typeof seedSyncOrg>>;
  const search = (query: string, jar: CookieJar = a.manager.jar) =>
    t.app.inject({ method: 'GET', url: `/api/crm/customers?${query}`, headers: jar.headers() });
  const page = async (query: string, jar?: CookieJar) => {
    const res = await search(query, jar);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<RosterSearchResponse>();
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await seedSyncOrg(t.app, t.db);
    b = await seedSyncOrg(t.app, t.db);
    await addCustomers(t.db, a.org.id, ['Adams', 'Baker', 'Clark', 'Davis', 'Evans']);
    await addCustomers(t.db, b.org.id, ['Young', 'Zimmer', 'Yates']);
  });
  afterAll(() => t.close());

  it('pages through every sort, with and without a query, and no row twice', async () => {
    for (const sort of ['lastName', 'firstName', 'email', 'createdAt'])
      for (const dir of ['asc', 'desc'])
        for (const q of ['', 'pat']) {
          const base = `limit=2&sort=${sort}&dir=${dir}&q=${q}`;
          const seen: string[] = [];
          let cursor: string | null = null;
          do {
            const next: RosterSearchResponse = await page(
              `${base}${cursor ? `&cursor=${cursor}` : ''}`,
            );
            seen.push(...next.rows.map((row) => row.rosterId));
            cursor = next.nextCursor;
          } while (cursor);
          const all = await page(`limit=100&sort=${sort}&dir=${dir}&q=${q}`);
          expect(seen, base).toEqual(all.rows.map((row) => row.rosterId));
        }
  });

  it('answers 400 to a cursor it did not make: garbage, huge, negative, wrong types', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const crafted = [
      'garbage',
      '%00',
      'x'.repeat(1000),
      cursorOf(null),
      cursorOf([]),
      cursorOf('o'),
      cursorOf({}),
      cursorOf({ o: -1 }),
      cursorOf({ o: 1e12 }),
      cursorOf({ o: '2' }),
      cursorOf({ o: 1.5 }),
      cursorOf({ k: 'zz', id }),
      cursorOf({ k: 'a\u0000', id }),
      cursorOf({ k: 12, id }),
      cursorOf({ k: 'Baker', id: 'not-a-uuid' }),
      cursorOf({ k: 'Baker', id, __proto__: { o: 1 } }),
    ];
    for (const cursor of crafted)
      for (const sort of ['lastName', 'createdAt']) {
        const res = await search(`sort=${sort}&cursor=${encodeURIComponent(cursor)}`);
        expect(res.statusCode, `${sort} ${cursor}`).toBe(400);
        const withQuery = await search(`q=pat&sort=${sort}&cursor=${encodeURIComponent(cursor)}`);
        expect(withQuery.statusCode, `q ${sort} ${cursor}`).toBe(400);
      }
  });

  it('answers 400 to a real cursor used for another organisation or another order', async () => {
    const first = await page('limit=1&sort=createdAt');
    const second = await page('limit=1&q=pat');
    expect(first.nextCursor).not.toBeNull();
    expect(second.nextCursor).not.toBeNull();
    expect(
      (await search(`limit=1&sort=createdAt&cursor=${first.nextCursor}`, b.manager.jar)).statusCode,
    ).toBe(400);
    expect(
      (await search(`limit=1&q=pat&cursor=${second.nextCursor}`, b.manager.jar)).statusCode,
    ).toBe(400);
    expect((await search(`limit=1&sort=lastName&cursor=${first.nextCursor}`)).statusCode).toBe(400);
    expect(
      (await search(`limit=1&sort=createdAt&dir=desc&cursor=${first.nextCursor}`)).statusCode,
    ).toBe(400);
    // A keyset cursor is not an offset into a query's matches, nor the other way round.
    expect(
      (await search(`limit=1&q=pat&sort=createdAt&cursor=${first.nextCursor}`)).statusCode,
    ).toBe(400);
    expect((await search(`limit=1&cursor=${second.nextCursor}`)).statusCode).toBe(400);
  });
});
