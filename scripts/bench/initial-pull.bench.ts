import { and, asc, eq, sql as dsql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import Fastify from 'fastify';
import { rosterItems } from '@platform/schema/db';
import { rosterItemToDoc, type RosterRow } from '../../sync-server/src/crm/roster.repository.ts';
import { collectionDefinitions } from '../../sync-server/src/sync/collections/definitions.ts';
import { pullStatement } from '../../sync-server/src/sync/pull.ts';
import {
  describeMachine,
  fmt,
  freshDatabase,
  listen,
  logIn,
  median,
  onCleanup,
  printMachine,
  printTable,
  ratio,
  runBench,
  seedOrgWithStaff,
  startApp,
  timed,
} from './bench-kit.ts';

/**
 * Issue 4 benchmark 1 — initial pull of a 100,000-item roster over HTTP, exactly as a client
 * pulls (GET /api/sync/roster/pull, batchSize 1000, following the checkpoint until a page is
 * empty), beside plain postgres.js reads of the same rows measured in the same run.
 *
 *   npx tsx scripts/bench/initial-pull.bench.ts
 */

const ITEMS = 100_000;
/** Rows per seeding transaction: the roster grew over time, so positions (txids) vary. */
const SEED_CHUNK = 1_000;
const BATCH = 1_000;
const ROUNDS = 3;
const MAX_PAGES = ITEMS / BATCH + 5;

type Doc = { id: string };
type Page = { documents: Doc[]; checkpoint: { id: string; lsn: number } | null };
type Outcome = { count: number; distinct: number; pages: number; /** the query string of the last (empty) page */ tail?: string };

await runBench('initial-pull', 170_000, async () => {
  const machine = await describeMachine();
  printMachine(machine);

  const { database, sql } = await freshDatabase('pull');
  const { org, staff } = await seedOrgWithStaff(database.db, 1);
  const viewer = staff[0];
  if (!viewer) throw new Error('no staff member');

  // ── seed: users and their roster items, set-based, SEED_CHUNK rows per transaction ──────
  const seeded = await timed(async () => {
    for (let from = 1; from <= ITEMS; from += SEED_CHUNK) {
      const to = Math.min(ITEMS, from + SEED_CHUNK - 1);
      await sql`
        with athletes as (
          insert into users (email, first_name, last_name)
          select 'athlete-' || g || '@bench.test', 'Athlete', 'Number ' || g from generate_series(${from}::int, ${to}::int) g
          returning id, email, first_name, last_name
        )
        insert into roster_items (org_id, user_id, first_name, last_name, email, phone, tags, updated_at)
        select ${org.id}::uuid, a.id, a.first_name, a.last_name, a.email, '+1 555 0100', array['member', 'bench'],
               timestamptz '2026-11-01T00:00:00.000Z'
        from athletes a`;
    }
    await sql`vacuum analyze users`;
    await sql`vacuum analyze roster_items`;
  });
  const [shape] = await sql<Array<{ rows: number; positions: number }>>`
    select count(*)::int as rows, count(distinct txid)::int as positions from roster_items where org_id = ${org.id}`;
  console.log(`Seeded ${fmt(shape?.rows ?? 0)} roster items over ${shape?.positions ?? 0} positions in ${fmt(seeded.ms / 1000, 1)} s.`);

  // ── the real app, a staff member holding view-customers ─────────────────────────────────
  const { base } = await startApp(database);
  const cookie = await logIn(base, viewer.email, org.id);

  const check = (outcome: Outcome, what: string) => {
    if (outcome.count !== ITEMS || outcome.distinct !== ITEMS) {
      throw new Error(`${what}: ${outcome.count} documents, ${outcome.distinct} distinct; expected ${ITEMS} of each`);
    }
  };

  /** The client's initial pull: page after page until an empty page. */
  async function pullOverHttp(pullBase: string, path: string, headers: Record<string, string>): Promise<Outcome> {
    const ids = new Set<string>();
    let count = 0;
    let query = '';
    for (let pages = 1; pages <= MAX_PAGES; pages++) {
      const response = await fetch(`${pullBase}${path}?batchSize=${BATCH}${query}`, { headers, signal: AbortSignal.timeout(30_000) });
      if (!response.ok) throw new Error(`pull answered ${response.status}: ${await response.text()}`);
      const page = (await response.json()) as Page;
      if (page.documents.length === 0) return { count, distinct: ids.size, pages, tail: query };
      count += page.documents.length;
      for (const doc of page.documents) ids.add(doc.id);
      if (!page.checkpoint) throw new Error('a page with documents came without a checkpoint');
      query = `&id=${page.checkpoint.id}&lsn=${page.checkpoint.lsn}`;
    }
    throw new Error(`pull did not finish within ${MAX_PAGES} pages`);
  }

  // ── references ──────────────────────────────────────────────────────────────────────────
  async function plainSelect(): Promise<Outcome> {
    const rows = await sql<Array<{ id: string }>>`select * from roster_items where org_id = ${org.id} order by txid, id`;
    return { count: rows.length, distinct: new Set(rows.map((r) => r.id)).size, pages: 1 };
  }

  async function keysetSelect(): Promise<Outcome> {
    const ids = new Set<string>();
    let count = 0;
    let last: { txid: string; id: string } | undefined;
    for (let pages = 1; pages <= MAX_PAGES; pages++) {
      const rows = last
        ? await sql<Array<{ id: string; txid: string }>>`
            select * from roster_items where org_id = ${org.id} and (txid, id) > (${last.txid}::xid8, ${last.id}::uuid)
            order by txid, id limit ${BATCH}`
        : await sql<Array<{ id: string; txid: string }>>`
            select * from roster_items where org_id = ${org.id} order by txid, id limit ${BATCH}`;
      if (rows.length === 0) return { count, distinct: ids.size, pages };
      count += rows.length;
      for (const row of rows) ids.add(row.id);
      last = rows.at(-1);
    }
    throw new Error('keyset select did not finish');
  }

  // A bare Fastify endpoint doing the same keyset SELECT and document mapping, with none of
  // ours (no session, actor, snapshot transaction or visibility bound): HTTP + JSON alone.
  const bare = Fastify({ logger: false, forceCloseConnections: true });
  onCleanup(() => bare.close());
  const bareDb = drizzle(sql);
  bare.get('/pull', async (request) => {
    const q = request.query as { id?: string; lsn?: string; batchSize?: string };
    const rows = (await bareDb
      .select()
      .from(rosterItems)
      .where(
        q.id && q.lsn
          ? and(eq(rosterItems.orgId, org.id), dsql`(${rosterItems.txid}, ${rosterItems.id}) > (${q.lsn}::xid8, ${q.id}::uuid)`)
          : eq(rosterItems.orgId, org.id),
      )
      .orderBy(asc(rosterItems.txid), asc(rosterItems.id))
      .limit(Number(q.batchSize ?? BATCH))) as RosterRow[];
    const last = rows.at(-1);
    return { documents: rows.map(rosterItemToDoc), checkpoint: last ? { id: last.id, lsn: Number(last.txid) } : null };
  });
  const bareBase = await listen(bare);

  const methods: Array<{ name: string; run: () => Promise<Outcome> }> = [
    { name: 'ours: GET /api/sync/roster/pull (real app, HTTP)', run: () => pullOverHttp(base, '/api/sync/roster/pull', { cookie }) },
    { name: 'ref: plain SELECT … ORDER BY txid, id (one query)', run: plainSelect },
    { name: 'ref: keyset SELECT, batches of 1000', run: keysetSelect },
    { name: 'ref: bare Fastify + keyset SELECT (HTTP, no auth)', run: () => pullOverHttp(bareBase, '/pull', {}) },
  ];

  // Warm-up (not counted): caches, JIT, prepared statements.
  const tails: Array<string | undefined> = [];
  for (const method of methods) {
    const outcome = await method.run();
    check(outcome, method.name);
    tails.push(outcome.tail);
  }

  const times = new Map<string, number[]>(methods.map((m) => [m.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate the order each round so no method always runs first.
    for (let i = 0; i < methods.length; i++) {
      const method = methods[(i + round) % methods.length];
      if (!method) continue;
      const { ms, result } = await timed(method.run);
      check(result, method.name);
      times.get(method.name)?.push(ms);
    }
    console.log(`round ${round + 1}: ${methods.map((m) => `${fmt(times.get(m.name)?.at(-1) ?? NaN)} ms`).join(' · ')}`);
  }

  const medianOf = (name: string) => median(times.get(name) ?? []);
  const ours = medianOf(methods[0]?.name ?? '');
  const plain = medianOf(methods[1]?.name ?? '');
  printTable(
    `Initial pull of ${fmt(ITEMS)} roster items, batch ${BATCH} — median of ${ROUNDS} (every run: ${fmt(ITEMS)} docs, no duplicates)`,
    ['method', 'median time', 'docs/s', 'runs (ms)', 'ours ÷ this (time)'],
    methods.map((m) => {
      const t = medianOf(m.name);
      return [m.name, `${fmt(t / 1000, 2)} s`, fmt(ITEMS / (t / 1000)), (times.get(m.name) ?? []).map((x) => fmt(x)).join(', '), ratio(ours / t)];
    }),
  );
  console.log(`Target: ours within 3× of the plain SELECT — ${ours / plain <= 3 ? 'MET' : 'NOT MET'} (${ratio(ours / plain)}).`);

  // ── the fixed cost of one pull request: an empty page (checkpoint at the end) ───────────
  const EMPTY_PULLS = 200;
  const emptyPage = async (url: string, headers: Record<string, string>) => {
    const latencies: number[] = [];
    for (let i = 0; i < EMPTY_PULLS; i++) {
      const { ms, result } = await timed(async () => {
        const response = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
        return (await response.json()) as Page;
      });
      if (result.documents.length !== 0) throw new Error(`${url}: expected an empty page`);
      latencies.push(ms);
    }
    return median(latencies);
  };
  const oursEmpty = await emptyPage(`${base}/api/sync/roster/pull?batchSize=${BATCH}${tails[0] ?? ''}`, { cookie });
  const bareEmpty = await emptyPage(`${bareBase}/pull?batchSize=${BATCH}${tails[3] ?? ''}`, {});
  printTable(
    `Fixed cost of one pull request (empty page at the end of the feed), median of ${EMPTY_PULLS} sequential requests`,
    ['endpoint', 'median latency', 'ours ÷ this'],
    [
      ['ours: GET /api/sync/roster/pull', `${fmt(oursEmpty, 2)} ms`, ratio(1)],
      ['ref: bare Fastify + keyset SELECT', `${fmt(bareEmpty, 2)} ms`, ratio(oursEmpty / bareEmpty)],
    ],
  );

  // ── the pull query's plan, as pull.ts builds it (first page and a page halfway) ─────────
  const [middle] = await sql<Array<{ id: string; txid: string }>>`
    select id, txid::text from roster_items where org_id = ${org.id} order by txid, id offset ${ITEMS / 2} limit 1`;
  for (const checkpoint of [null, middle ?? null]) {
    const query = pullStatement(
      database.db,
      collectionDefinitions.roster,
      { orgId: org.id, ownerIds: null, writable: true },
      checkpoint ? { id: checkpoint.id, lsn: Number(checkpoint.txid) } : null,
      BATCH,
    ).toSQL();
    const plan = await sql.unsafe<Array<{ 'QUERY PLAN': string }>>(`explain (analyze, buffers) ${query.sql}`, query.params as never[]);
    console.log(`\nEXPLAIN ANALYZE of the pull query, ${checkpoint ? 'page halfway (checkpoint at row 50,000)' : 'first page'}:`);
    console.log(`  ${query.sql}`);
    for (const line of plan) console.log(`  ${line['QUERY PLAN']}`);
  }
});
