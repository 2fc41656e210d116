import net from 'node:net';
import { inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { timeEntries } from '@platform/schema/db';
import { STREAM_RECONNECT_EVENT } from '@platform/schema/sync/sync.zod';
import { stopServer } from '../server.ts';
import { createTestApp, listenOnLoopback } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { seedSyncOrg, timeEntry } from '../testing/sync-fixtures.ts';
import { openSse } from '../testing/sse-client.ts';
import { rowsOf, type Db } from '../db/open-database.ts';

/**
 * A request begun on its own connection before the close and finished after it: the socket
 * is busy (not idle) when the server stops listening, as a request in transit would be.
 */
async function requestStartedEarly(base: string, path: string) {
  const { hostname, port } = new URL(base);
  const socket = net.connect(Number(port), hostname);
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\n`);
  let text = '';
  socket.on('data', (chunk) => (text += chunk.toString()));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return {
    finish: async () => {
      socket.write('\r\n');
      await closed;
      const [head = '', body = ''] = text.split('\r\n\r\n');
      return { status: Number(head.split(' ')[1]), head: head.toLowerCase(), body };
    },
  };
}

/** Waits until a backend of this database waits on a lock (the app's request is in flight). */
async function untilWaitingOnLock(db: Db) {
  for (let i = 0; i < 200; i++) {
    const [row] = rowsOf<{ n: number }>(
      await db.execute(
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      ),
    );
    if (row?.n) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the request never waited on the lock');
}

// Issue 11: closing (SIGTERM) answers what was accepted, ends live streams with a reconnect
// hint, refuses new work with 503 + Retry-After, and closes the database last.
describe.each(testDatabaseKinds)('closing the app on %s', (kind) => {
  it('answers the request in flight, ends streams with a reconnect hint, refuses the rest', async () => {
    const t = await createTestApp(kind);
    const a = await seedSyncOrg(t.app, t.db);
    const base = await listenOnLoopback(t.app);
    const stream = await openSse(
      `${base}/api/sync/stream`,
      a.manager.jar.headers() as Record<string, string>,
    );
    await stream.next((e) => e.event === 'resync');
    const readyz = await requestStartedEarly(base, '/readyz');

    // Hold the database so that a push stays in flight across the close: a lock on
    // PostgreSQL; on PGlite, whose one connection runs one transaction at a time, any.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding = () => {};
    const held = new Promise<void>((resolve) => (holding = resolve));
    const holder = t.db.transaction(async (tx) => {
      if (kind === 'postgres') await tx.execute(sql`lock table time_entries in exclusive mode`);
      holding();
      await released;
    });
    await held;
    const docs = Array.from({ length: 20 }, () => timeEntry(a.org.id, a.manager.id));
    const push = fetch(`${base}/api/sync/time-entries/push`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...a.manager.jar.headers() },
      body: JSON.stringify(
        docs.map((doc) => ({ assumedMasterState: null, newDocumentState: doc })),
      ),
    });
    if (kind === 'postgres') await untilWaitingOnLock(t.db);
    else await new Promise((r) => setTimeout(r, 300));

    // The database, as the server closes it: what it holds by then.
    let storedWhenClosed = -1;
    const stopped = stopServer(t.app, {
      ...t.database,
      close: async () => {
        const ids = docs.map((d) => d.id);
        storedWhenClosed = (
          await t.db
            .select({ id: timeEntries.id })
            .from(timeEntries)
            .where(inArray(timeEntries.id, ids))
        ).length;
        await t.database.close();
      },
    });
    // The stream is told to come back later, then ended.
    const reconnect = await stream.next((e) => e.event === STREAM_RECONNECT_EVENT);
    expect(JSON.parse(reconnect.data)).toEqual({ afterMs: expect.any(Number) });
    expect(stream.retries.at(-1)).toBeGreaterThan(0);
    await expect.poll(() => stream.hasEnded()).toBe(true);
    // Nothing new is taken: a new connection is refused; a request that was on its way
    // answers 503 with a retry hint (so does /readyz: the load balancer looks elsewhere).
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    const late = await readyz.finish();
    expect(late.status).toBe(503);
    expect(late.head).toMatch(/retry-after: \d+/);

    release();
    await holder;
    const answer = await push;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual([]);
    // Closed in order: the database after the request that used it (PGlite threw 'PGlite is
    // closed' from under it before), holding that request's rows.
    await stopped;
    expect(storedWhenClosed).toBe(docs.length);
  }, 60_000);
});
