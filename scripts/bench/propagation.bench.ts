import { randomUUID } from 'node:crypto';
import type { EventSourceMessage } from 'eventsource-parser';
import Fastify from 'fastify';
import {
  describeMachine,
  fmt,
  forEachConcurrently,
  freshDatabase,
  listen,
  logIn,
  onCleanup,
  openEventStream,
  percentile,
  printMachine,
  printTable,
  ratio,
  runBench,
  seedOrgWithStaff,
  sleep,
  startApp,
} from './bench-kit.ts';
import { MAX_STREAMS_PER_HOLDER } from '../../sync-server/src/sync/stream.ts';

/**
 * Issue 4 benchmark 3 — how fast a write reaches live clients: 200 SSE clients on the real
 * app (GET /api/sync/stream with session cookies, read with fetch + eventsource-parser); one
 * writer pushes a time entry every ~100 ms, 100 times; each client's delay is measured from
 * just before the push request is sent to the arrival of its `change` event. Beside it, in the
 * same run: a bare Fastify SSE endpoint (no database) broadcasting to 200 clients on request.
 *
 *   npx tsx scripts/bench/propagation.bench.ts
 */

const CLIENTS = 200;
const WRITES = 100;
const INTERVAL_MS = 100;
/** Staff sessions the 200 streams share: as many streams each as the server allows one session. */
const SESSIONS = Math.ceil(CLIENTS / MAX_STREAMS_PER_HOLDER);
/** After the last write, how long stragglers may take before they count as missing. */
const GRACE_MS = 5_000;

type Arrival = { lsn: number; at: number };
type Result = {
  delays: number[];
  /** Per write: the first client's delay (the path up to the fan-out) and last − first (the fan-out). */
  first: number[];
  spread: number[];
  received: number;
  missing: number;
  resyncs: number;
  requestMs: number[];
  /** When each write's request was sent (performance.now()), by write. */
  sentAt: number[];
};

/**
 * Opens the clients, waits for each one's first event (`resync`), then writes WRITES times at
 * INTERVAL_MS and collects every client's change events. `write(k)` sends write k and resolves
 * once answered; `lsnOf` maps an event's position to the write that caused it.
 */
async function measure(
  url: string,
  headersOf: (client: number) => Record<string, string>,
  write: (k: number) => Promise<void>,
  lsnOf: () => Promise<Map<number, number>>,
): Promise<Result> {
  const arrivals: Arrival[][] = Array.from({ length: CLIENTS }, () => []);
  const ready: boolean[] = Array.from({ length: CLIENTS }, () => false);
  let resyncs = 0;
  const streams: Array<{ close: () => void }> = [];
  onCleanup(async () => streams.forEach((s) => s.close()));
  await forEachConcurrently(CLIENTS, 20, async (client) => {
    const onEvent = (event: EventSourceMessage, at: number) => {
      if (event.event === 'resync') {
        if (ready[client]) resyncs++;
        ready[client] = true;
      } else if (event.event === 'change') {
        arrivals[client]?.push({ lsn: (JSON.parse(event.data) as { lsn: number }).lsn, at });
      }
    };
    streams.push(await openEventStream(url, headersOf(client), onEvent));
  });
  for (let waited = 0; ready.some((r) => !r); waited += 50) {
    if (waited > 30_000) throw new Error(`${ready.filter((r) => !r).length} streams never said resync`);
    await sleep(50);
  }

  const sentAt: number[] = [];
  const requestMs: number[] = [];
  const start = performance.now();
  for (let k = 0; k < WRITES; k++) {
    const due = start + k * INTERVAL_MS;
    if (due > performance.now()) await sleep(due - performance.now());
    sentAt[k] = performance.now();
    await write(k);
    requestMs.push(performance.now() - (sentAt[k] ?? 0));
  }
  const expected = CLIENTS * WRITES;
  const count = () => arrivals.reduce((sum, a) => sum + a.length, 0);
  for (let waited = 0; count() < expected && waited < GRACE_MS; waited += 20) await sleep(20);
  streams.forEach((s) => s.close());

  const writeOf = await lsnOf();
  const delays: number[] = [];
  const byWrite: number[][] = Array.from({ length: WRITES }, () => []);
  let received = 0;
  for (const clientArrivals of arrivals) {
    const seen = new Set<number>();
    for (const { lsn, at } of clientArrivals) {
      const k = writeOf.get(lsn);
      if (k === undefined || seen.has(k)) continue;
      seen.add(k);
      received++;
      const delay = at - (sentAt[k] ?? at);
      delays.push(delay);
      byWrite[k]?.push(delay);
    }
  }
  const reached = byWrite.filter((d) => d.length > 0);
  return {
    delays,
    first: reached.map((d) => Math.min(...d)),
    spread: reached.map((d) => Math.max(...d) - Math.min(...d)),
    received,
    missing: expected - received,
    resyncs,
    requestMs,
    sentAt,
  };
}

await runBench('propagation', 170_000, async () => {
  const machine = await describeMachine();
  printMachine(machine);

  // ── reference: a bare Fastify SSE endpoint, no database; POST /broadcast fans out ───────
  const bare = Fastify({ logger: false, forceCloseConnections: true });
  onCleanup(() => bare.close());
  const listeners = new Set<(chunk: string) => void>();
  bare.get('/stream', (_request, reply) => {
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    raw.write('retry: 3000\n\nevent: resync\ndata: {}\n\n');
    const send = (chunk: string) => void raw.write(chunk);
    listeners.add(send);
    raw.on('close', () => listeners.delete(send));
  });
  bare.post('/broadcast', async (request) => {
    const { lsn } = request.body as { lsn: number };
    const chunk = `event: change\ndata: ${JSON.stringify({ collection: 'time-entries', lsn })}\n\n`;
    for (const send of listeners) send(chunk);
    return { ok: true };
  });
  const bareBase = await listen(bare);
  const reference = await measure(
    `${bareBase}/stream`,
    () => ({}),
    async (k) => {
      const response = await fetch(`${bareBase}/broadcast`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ lsn: k }),
        signal: AbortSignal.timeout(10_000),
      });
      await response.arrayBuffer();
    },
    async () => new Map(Array.from({ length: WRITES }, (_, k) => [k, k])),
  );
  await bare.close();

  // ── ours: the real app, 200 streams of staff who may see time entries ───────────────────
  const { name: databaseName, database, sql } = await freshDatabase('propagation');
  const { org, staff } = await seedOrgWithStaff(database.db, SESSIONS);
  const { base } = await startApp(database);
  const cookies = await Promise.all(staff.map((s) => logIn(base, s.email, org.id)));
  const writer = staff[0];
  if (!writer) throw new Error('no writer');
  const written: string[] = [];

  // The hub passes a change on once it is pullable: once pg_snapshot_xmin — the oldest
  // transaction still in flight anywhere on this PostgreSQL cluster — has passed its txid.
  // Sample that bound alongside, and who holds it back.
  const bounds: Array<{ at: number; xmin: number; oldestDb: string | null }> = [];
  let monitoring = true;
  const monitor = (async () => {
    for (let i = 0; monitoring && i < 10_000; i++) {
      const [b] = await sql<Array<{ xmin: string; oldest_db: string | null }>>`
        select pg_snapshot_xmin(pg_current_snapshot())::text as xmin,
               (select datname from pg_stat_activity where backend_xid is not null order by age(backend_xid) desc limit 1) as oldest_db`;
      if (b) bounds.push({ at: performance.now(), xmin: Number(b.xmin), oldestDb: b.oldest_db });
      await sleep(10);
    }
  })();
  const txids: number[] = [];
  const ours = await measure(
    `${base}/api/sync/stream`,
    (client) => ({ cookie: cookies[client % SESSIONS] ?? '' }),
    async (k) => {
      // In the past: the server refuses stamps ahead of its clock.
      const start = Date.UTC(2025, 0, 1, 8) + k * 60_000;
      const doc = {
        id: randomUUID(),
        orgId: org.id,
        userId: writer.id,
        startTime: new Date(start).toISOString(),
        // Finished, 30 s each a minute apart: one person's entries must not overlap (issue 6).
        endTime: new Date(start + 30_000).toISOString(),
        breakIntervals: [],
        updatedAt: new Date(start).toISOString(),
        _deleted: false,
      };
      written[k] = doc.id;
      const response = await fetch(`${base}/api/sync/time-entries/push`, {
        method: 'POST',
        headers: { cookie: cookies[0] ?? '', 'content-type': 'application/json' },
        body: JSON.stringify([{ assumedMasterState: null, newDocumentState: doc }]),
        signal: AbortSignal.timeout(10_000),
      });
      if (response.status !== 200) throw new Error(`push answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
    },
    async () => {
      // The change event names the writing transaction's id, which is the row's txid.
      const rows = await sql<Array<{ id: string; txid: string }>>`select id, txid::text from time_entries where id = any(${written}::uuid[])`;
      const index = new Map(written.map((id, k) => [id, k]));
      for (const r of rows) txids[index.get(r.id) ?? -1] = Number(r.txid);
      return new Map(rows.map((r) => [Number(r.txid), index.get(r.id) ?? -1]));
    },
  );
  monitoring = false;
  await monitor;
  // Per write, from the push's answer (its transaction has committed): how long until the
  // bound was seen past its txid (0 when the first sample already was; samples are ~10 ms
  // apart plus a round trip, so this is coarse), and whether a transaction of another
  // database was the oldest in flight then.
  const boundWait: number[] = [];
  let heldByOthers = 0;
  ours.sentAt.forEach((sent, k) => {
    const txid = txids[k];
    if (txid === undefined) return;
    const answered = sent + (ours.requestMs[k] ?? 0);
    const atCommit = bounds.find((b) => b.at >= answered);
    const passed = bounds.find((b) => b.at >= answered && b.xmin > txid);
    if (!atCommit || !passed) return;
    boundWait.push(atCommit.xmin > txid ? 0 : passed.at - answered);
    if (atCommit.xmin <= txid && atCommit.oldestDb !== null && atCommit.oldestDb !== databaseName) heldByOthers++;
  });

  const row = (name: string, r: Result) => [
    name,
    `${fmt(percentile(r.delays, 50), 1)} ms`,
    `${fmt(percentile(r.delays, 95), 1)} ms`,
    `${fmt(percentile(r.delays, 99), 1)} ms`,
    `${fmt(Math.max(...r.delays), 1)} ms`,
    `${fmt(percentile(r.requestMs, 50), 1)} / ${fmt(percentile(r.requestMs, 99), 1)} ms`,
    `${fmt(r.received)} / ${fmt(CLIENTS * WRITES)}`,
    fmt(r.resyncs),
  ];
  printTable(
    `Propagation to ${CLIENTS} live SSE clients, ${WRITES} writes every ${INTERVAL_MS} ms (delay: just before the write request → change event at the client)`,
    ['path', 'p50', 'p95', 'p99', 'max', 'write request p50 / p99', 'delivered', 'resyncs'],
    [row('ours: push → NOTIFY → hub → /api/sync/stream', ours), row('ref: bare Fastify SSE broadcast (no database)', reference)],
  );
  const p99 = percentile(ours.delays, 99);
  printTable('Ratios (ours ÷ reference)', ['figure', 'ratio'], [
    ['p50 delay', ratio(percentile(ours.delays, 50) / percentile(reference.delays, 50))],
    ['p99 delay', ratio(p99 / percentile(reference.delays, 99))],
  ]);
  printTable('Where the time goes, per write (p50 / p99 over the writes)', ['path', 'first client reached', 'last − first client (fan-out)'], [
    ['ours', `${fmt(percentile(ours.first, 50), 1)} / ${fmt(percentile(ours.first, 99), 1)} ms`, `${fmt(percentile(ours.spread, 50), 1)} / ${fmt(percentile(ours.spread, 99), 1)} ms`],
    ['ref', `${fmt(percentile(reference.first, 50), 1)} / ${fmt(percentile(reference.first, 99), 1)} ms`, `${fmt(percentile(reference.spread, 50), 1)} / ${fmt(percentile(reference.spread, 99), 1)} ms`],
  ]);
  console.log(
    `Ours, wait after the push answered until the cluster-wide bound (pg_snapshot_xmin) passed the write: ` +
      `${boundWait.filter((w) => w > 0).length} of ${boundWait.length} writes waited (p99 ${fmt(percentile(boundWait, 99), 1)} ms, ` +
      `max ${fmt(Math.max(...boundWait), 1)} ms; sampled every ~10 ms); ${heldByOthers} of them behind a transaction of another database.`,
  );
  console.log(`Target p99 < 250 ms: ${p99 < 250 ? 'MET' : 'NOT MET'} (${fmt(p99, 1)} ms).`);
  const complete = ours.missing === 0 && reference.missing === 0;
  console.log(complete ? 'Every client received every change.' : `MISSING deliveries: ours ${ours.missing}, reference ${reference.missing}.`);
  if (!complete) process.exitCode = 1;
});
