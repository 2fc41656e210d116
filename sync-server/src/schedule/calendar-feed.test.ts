import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarFeeds } from '@platform/schema/db';
import { insertOccurrence } from '../testing/schedule-fixtures.ts';
import { booking, pushNewAs, seedSyncOrg, type Person } from '../testing/sync-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

describe.each(testDatabaseKinds)('the private calendar feed on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;
  let b: Awaited<ReturnType<typeof seedSyncOrg>>;
  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await seedSyncOrg(t.app, t.db);
    b = await seedSyncOrg(t.app, t.db);
  });
  afterAll(async () => t?.close());

  const book = (who: Person, docs: object[]) => pushNewAs(t, who, 'bookings', docs);
  const feed = (who: Person, method: 'GET' | 'POST' | 'DELETE') =>
    t.app.inject({ method, url: '/api/schedule/calendar-feed', headers: who.jar.headers() });
  const fetchFeed = (url: string) => t.app.inject({ method: 'GET', url: new URL(url).pathname });

  it('lists the family’s bookings and nobody else’s, and stops at once when revoked', async () => {
    const { occurrence: yoga } = await insertOccurrence(t.db, a.org.id, { title: 'Yoga, slow' });
    const { occurrence: swim } = await insertOccurrence(t.db, a.org.id, { title: 'Kids swim' });
    const { occurrence: spin } = await insertOccurrence(t.db, a.org.id, { title: 'Spin' });
    const { occurrence: elsewhere } = await insertOccurrence(t.db, b.org.id, { title: 'Boxing' });
    await book(a.parent, [
      booking(a.org.id, a.parent.id, { occurrenceId: yoga.id }),
      booking(a.org.id, a.childId, { occurrenceId: swim.id }),
    ]);
    await book(a.other, [booking(a.org.id, a.otherCustomerId, { occurrenceId: spin.id })]);
    await book(b.parent, [booking(b.org.id, b.parent.id, { occurrenceId: elsewhere.id })]);

    expect((await feed(a.parent, 'GET')).json()).toEqual({
      active: false,
      createdAt: null,
      url: null,
    });
    const made = (await feed(a.parent, 'POST')).json();
    expect(made.active).toBe(true);
    expect(made.url).toMatch(/\/ics\/[A-Za-z0-9_-]{43}\.ics$/);
    // Only the token's hash is kept.
    const stored = await t.db.select().from(calendarFeeds);
    const token = new URL(made.url).pathname.slice(5, -4);
    expect(stored.some((row) => row.tokenHash === token)).toBe(false);

    const res = await fetchFeed(made.url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.body).toContain('SUMMARY:Yoga\\, slow');
    expect(res.body).toContain('SUMMARY:Kids swim');
    expect(res.body).not.toContain('Spin');
    expect(res.body).not.toContain('Boxing');

    // A new link replaces the old one; revoking ends it.
    const again = (await feed(a.parent, 'POST')).json();
    expect((await fetchFeed(made.url)).statusCode).toBe(404);
    expect((await fetchFeed(again.url)).statusCode).toBe(200);
    expect((await feed(a.parent, 'DELETE')).statusCode).toBe(204);
    expect((await fetchFeed(again.url)).statusCode).toBe(404);
    expect((await feed(a.parent, 'GET')).json().active).toBe(false);
  });

  it('is for customers in their app, and answers 404 to a made-up token', async () => {
    expect((await feed(a.manager, 'POST')).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/schedule/calendar-feed' })).statusCode,
    ).toBe(401);
    const res = await t.app.inject({
      method: 'GET',
      url: '/ics/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.ics',
    });
    expect(res.statusCode).toBe(404);
  });
});
