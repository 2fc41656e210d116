import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, listenOnLoopback } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { booking, seedSyncOrg, timeEntry, type Person } from '../testing/sync-fixtures.ts';
import { changeOf, openSse } from '../testing/sse-client.ts';

describe.each(testDatabaseKinds)('the live stream on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;
  let b: Awaited<ReturnType<typeof seedSyncOrg>>;
  let base: string;
  const push = (who: Person, collection: string, docs: object[]) =>
    t.app.inject({
      method: 'POST',
      url: `/api/sync/${collection}/push`,
      headers: who.jar.headers(),
      payload: docs.map((doc) => ({ assumedMasterState: null, newDocumentState: doc })),
    });

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await seedSyncOrg(t.app, t.db);
    b = await seedSyncOrg(t.app, t.db);
    base = await listenOnLoopback(t.app);
  });
  afterAll(() => t.close());

  it('says resync on connect, then names each change the client may see', async () => {
    const stream = await openSse(
      `${base}/api/sync/stream`,
      a.manager.jar.headers() as Record<string, string>,
    );
    try {
      await stream.next((e) => e.event === 'resync');
      await push(a.staff, 'time-entries', [timeEntry(a.org.id, a.staff.id)]);
      const change = await stream.next(changeOf('time-entries'));
      expect(JSON.parse(change.data)).toEqual({
        collection: 'time-entries',
        lsn: expect.any(Number),
      });
      // The position it names is already pullable.
      const pulled = await t.app.inject({
        url: '/api/sync/time-entries/pull?batchSize=1000',
        headers: a.manager.jar.headers(),
      });
      expect(pulled.json().checkpoint.lsn).toBeGreaterThanOrEqual(JSON.parse(change.data).lsn);
    } finally {
      stream.close();
    }
  });

  it('tells nobody about another organisation’s changes, and a customer only about their own family', async () => {
    const otherOrg = await openSse(
      `${base}/api/sync/stream`,
      b.manager.jar.headers() as Record<string, string>,
    );
    const parent = await openSse(
      `${base}/api/sync/stream`,
      a.parent.jar.headers() as Record<string, string>,
    );
    try {
      await Promise.all([
        otherOrg.next((e) => e.event === 'resync'),
        parent.next((e) => e.event === 'resync'),
      ]);
      await push(a.other, 'bookings', [booking(a.org.id, a.otherCustomerId)]);
      await push(a.manager, 'time-entries', [timeEntry(a.org.id, a.manager.id)]);
      await push(a.parent, 'bookings', [booking(a.org.id, a.childId)]);
      await parent.next(changeOf('bookings'));
      // The parent's own booking was the last write; by now the earlier ones would have arrived.
      expect(parent.events.filter(changeOf('bookings'))).toHaveLength(1);
      expect(parent.events.filter(changeOf('time-entries'))).toHaveLength(0);
      expect(otherOrg.events.filter((e) => e.event === 'change')).toHaveLength(0);
    } finally {
      otherOrg.close();
      parent.close();
    }
  });

  it('passes on the cookies of a refresh made while opening the stream', async () => {
    const headers = { cookie: `refresh_token=${a.staff.jar.get('refresh_token')}` };
    const controller = new AbortController();
    const res = await fetch(`${base}/api/sync/stream`, { headers, signal: controller.signal });
    expect(res.status).toBe(200);
    const names = res.headers.getSetCookie().map((c) => c.split('=')[0]);
    controller.abort();
    expect(names).toEqual(expect.arrayContaining(['access_token', 'refresh_token']));
    // The rotated refresh token is the one the browser now holds; keep the fixture's jar in step.
    for (const c of res.headers.getSetCookie()) {
      const [name = '', value = ''] = (c.split(';')[0] ?? '').split('=');
      a.staff.jar.set(name, value);
    }
  });

  it.runIf(kind === 'postgres')('tells clients to resync when the server had lost its LISTEN connection', async () => {
    const stream = await openSse(`${base}/api/sync/stream`, a.manager.jar.headers() as Record<string, string>);
    try {
      await stream.next((e) => e.event === 'resync');
      const before = stream.events.length;
      await t.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen%'`,
      );
      await stream.next((e) => e.event === 'resync', 10_000, before);
    } finally {
      stream.close();
    }
  });

  it('refuses a stream without a session', async () => {
    const res = await fetch(`${base}/api/sync/stream`);
    expect(res.status).toBe(401);
  });
});
