import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { memberships } from '@platform/schema/db';
import { asKiosk, startTestKiosk } from '../kiosk/kiosk.fixtures.ts';
import { addMembership, insertTestUser, linkChild, logInAs } from '../testing/auth-fixtures.ts';
import { createTestApp, listenOnLoopback } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { booking, seedSyncOrg, timeEntry, type Person } from '../testing/sync-fixtures.ts';
import { changeOf, openSse } from '../testing/sse-client.ts';
import { STREAM_HEARTBEAT_MS } from '@platform/schema/sync/sync.zod';
import { MAX_STREAMS_PER_HOLDER } from './stream.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** 'ended' once the server closed the stream, 'open' if it still runs after `ms`. */
const stateAfter = (stream: { ended: Promise<void> }, ms = 500) =>
  Promise.race([stream.ended.then(() => 'ended' as const), sleep(ms).then(() => 'open' as const)]);

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

  /** A person of org a signed in afresh (so tests may change or end their session). */
  async function signedIn(kind: 'staff' | 'customer', claims?: string[]) {
    const user = await insertTestUser(t.db);
    await addMembership(t.db, user.id, a.org.id, kind, claims);
    const profileType = kind === 'staff' ? 'use-org' : 'use-customer';
    const { jar } = await logInAs(t.app, user.email!, { profileType, profileOrgId: a.org.id });
    return { user, headers: jar.headers() as Record<string, string>, jar };
  }
  const streamStatus = async (headers: Record<string, string>) => {
    const res = await fetch(`${base}/api/sync/stream`, { headers });
    await res.body?.cancel();
    return res.status;
  };

  describe(`at most ${MAX_STREAMS_PER_HOLDER} streams at once`, () => {
    async function holdAll(headers: Record<string, string>) {
      const streams = [];
      for (let i = 0; i < MAX_STREAMS_PER_HOLDER; i++) {
        const stream = await openSse(`${base}/api/sync/stream`, headers);
        await stream.next((e) => e.event === 'resync');
        streams.push(stream);
      }
      return streams;
    }

    it('per session: one more answers 429; another person is not affected; a closed one frees its place', async () => {
      const person = await signedIn('staff');
      const streams = await holdAll(person.headers);
      try {
        expect(await streamStatus(person.headers)).toBe(429);
        const someoneElse = await openSse(`${base}/api/sync/stream`, b.manager.jar.headers() as Record<string, string>);
        someoneElse.close();
        streams.shift()?.close();
        // The server frees the place when it sees the connection close.
        let status = 0;
        for (let i = 0; i < 50 && status !== 200; i++) {
          status = await streamStatus(person.headers);
          if (status !== 200) await sleep(50);
        }
        expect(status).toBe(200);
      } finally {
        streams.forEach((stream) => stream.close());
      }
    });

    it('per kiosk device', async () => {
      const kiosk = await startTestKiosk(t.app, t.db, a.org.id);
      const headers = asKiosk(kiosk.jar) as Record<string, string>;
      const streams = await holdAll(headers);
      try {
        expect(await streamStatus(headers)).toBe(429);
      } finally {
        streams.forEach((stream) => stream.close());
      }
    });
  });

  describe('when its session changes', () => {
    // The stream checks its session on each heartbeat: fake only the heartbeat's interval,
    // so the test says when it beats (the HTTP and database work keep real time).
    async function openWithFakeHeartbeat(headers: Record<string, string>) {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      const stream = await openSse(`${base}/api/sync/stream`, headers);
      await stream.next((e) => e.event === 'resync');
      return stream;
    }
    const beat = () => vi.advanceTimersByTime(STREAM_HEARTBEAT_MS);

    async function expectEndsAfter(
      headers: Record<string, string>,
      change: () => Promise<unknown>,
    ) {
      const stream = await openWithFakeHeartbeat(headers);
      try {
        beat();
        expect(await stateAfter(stream)).toBe('open');
        await change();
        beat();
        expect(await stateAfter(stream, 5000)).toBe('ended');
      } finally {
        stream.close();
        vi.useRealTimers();
      }
    }

    it('ends the stream when the session’s claims change, so the client reconnects with its new scope', async () => {
      const manager = await signedIn('staff');
      await expectEndsAfter(manager.headers, () =>
        t.db
          .update(memberships)
          .set({ claims: ['manage-own-time-tracking'] })
          .where(and(eq(memberships.userId, manager.user.id), eq(memberships.orgId, a.org.id))),
      );
      // The session itself goes on: reconnecting opens a stream with the new scope.
      expect(await streamStatus(manager.headers)).toBe(200);
    });

    it('ends the stream when the family it covers changes', async () => {
      const parent = await signedIn('customer');
      await expectEndsAfter(parent.headers, async () => {
        const child = await insertTestUser(t.db, { email: null, withPassword: false });
        await addMembership(t.db, child.id, a.org.id, 'customer');
        await linkChild(t.db, parent.user.id, child.id, a.org.id);
      });
    });

    it('ends the stream when the session is signed out', async () => {
      const person = await signedIn('staff');
      await expectEndsAfter(person.headers, () =>
        t.app.inject({ method: 'POST', url: '/auth/logout', headers: person.jar.headers() }),
      );
      expect(await streamStatus(person.headers)).toBe(401);
    });

    it('ends the stream when the session is switched to another account', async () => {
      const parent = await signedIn('customer');
      const child = await insertTestUser(t.db, { email: null, withPassword: false });
      await addMembership(t.db, child.id, a.org.id, 'customer');
      await linkChild(t.db, parent.user.id, child.id, a.org.id);
      const parentHeaders = parent.jar.headers() as Record<string, string>;
      await expectEndsAfter(parentHeaders, () =>
        t.app.inject({
          method: 'POST',
          url: '/auth/login',
          headers: { ...parentHeaders, 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ impersonate: child.id }).toString(),
        }),
      );
    });
  });

  it('refuses a stream without a session', async () => {
    const res = await fetch(`${base}/api/sync/stream`);
    expect(res.status).toBe(401);
  });
});
