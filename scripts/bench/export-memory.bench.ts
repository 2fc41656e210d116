import { spawnSync } from 'node:child_process';
import { createExport, runExport } from '../../sync-server/src/exports/exports.service.ts';
import {
  describeMachine,
  fmt,
  freshDatabase,
  printMachine,
  printTable,
  runBench,
  seedOrgWithStaff,
  timed,
} from './bench-kit.ts';

/**
 * Issue 17 — "memory flat: streamed, never the whole archive in memory". The export of an
 * organisation with 10,000 and with 100,000 customers (each with a tag, a note and a year of
 * 20 staff shifts a day), each in a process of its own so one run's heap does not carry into the
 * next — each section read through one server-side cursor (what the job does on PostgreSQL) and,
 * for comparison, a page at a time after the last keys (PGlite's way: every page sorts the
 * section again). Flat means the peak above the start does not grow with the organisation: 10×
 * the customers, about the same peak. Sampled every 20 ms: peak heap used and peak RSS; every
 * 250 ms after a full collection (--expose-gc): what the run holds, garbage aside.
 *
 *   npx tsx scripts/bench/export-memory.bench.ts
 */

type Reading = 'cursor' | 'keyset';

type Measured = {
  customers: number;
  reading: Reading;
  pageRows: number;
  ms: number;
  zipBytes: number;
  peakHeapMb: number;
  peakLiveMb: number;
  peakRssMb: number;
};

const runs: Array<{ customers: number; reading: Reading; pageRows: number }> = [
  { customers: 10_000, reading: 'cursor', pageRows: 5_000 },
  { customers: 100_000, reading: 'cursor', pageRows: 5_000 },
  { customers: 10_000, reading: 'keyset', pageRows: 5_000 },
  { customers: 100_000, reading: 'keyset', pageRows: 5_000 },
];

async function child(customers: number, reading: Reading, pageRows: number) {
  const { database, sql } = await freshDatabase(`export_mem_${customers}`);
  const { org, staff } = await seedOrgWithStaff(database.db, 20);
  await sql`
    with people as (
      insert into users (id, email, first_name, last_name, created_by_org_id)
      select gen_random_uuid(), 'mem-' || i || '@example.test', 'First' || i, 'Last ' || i, ${org.id}
      from generate_series(1, ${customers}) as i
      returning id, email, first_name, last_name
    ), enrolled as (
      insert into memberships (user_id, org_id, kind) select id, ${org.id}, 'customer' from people
    )
    insert into roster_items (org_id, user_id, first_name, last_name, email, tags, updated_at)
    select ${org.id}, id, first_name, last_name, email, array['Imported', 'Morning crew'], now()
    from people`;
  await sql`
    insert into customer_notes (id, org_id, user_id, author_id, author_name, body, updated_at)
    select gen_random_uuid(), ${org.id}, r.user_id, ${staff[0]!.id}, 'Bench Staff 0',
      'Prefers mornings; knee injury in 2025, no box jumps.', now()
    from roster_items r where r.org_id = ${org.id}`;
  await sql`
    insert into time_entries (id, org_id, user_id, start_time, end_time, break_intervals, updated_at)
    select gen_random_uuid(), ${org.id}, s.id, d + interval '8 hours', d + interval '16 hours',
      '[]'::jsonb, now()
    from unnest(${staff.map((s) => s.id)}::uuid[]) as s(id),
      generate_series(now() - interval '365 days', now(), interval '1 day') as d`;
  const exporter = {
    orgId: org.id,
    userId: staff[0]!.id,
    impersonatorUserId: null,
    switchedFrom: null,
  };
  const { id } = await createExport(database.db, { enqueue: async () => '' }, exporter);
  global.gc?.();
  const start = process.memoryUsage();
  let peakHeap = start.heapUsed;
  let peakRss = start.rss;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakHeap = Math.max(peakHeap, now.heapUsed);
    peakRss = Math.max(peakRss, now.rss);
  }, 20);
  // What the run holds, not garbage waiting for a collection: the heap right after a full GC.
  let peakLive = start.heapUsed;
  const liveSampler = setInterval(() => {
    global.gc?.();
    peakLive = Math.max(peakLive, process.memoryUsage().heapUsed);
  }, 250);
  const run = await timed(() =>
    runExport(
      {
        db: database.db,
        log: { error: (...args: unknown[]) => console.error(...args) },
        sizes: { pageRows, chunkBytes: 5 * 1024 * 1024 },
        // What the job does on PostgreSQL (one cursor per section), or paging by keys.
        pagesOf: reading === 'cursor' ? database.pagesOf : null,
      },
      id,
    ),
  );
  clearInterval(sampler);
  clearInterval(liveSampler);
  const [made] = await sql<Array<{ status: string; bytes: string }>>`
    select status, bytes::text from export_jobs where id = ${id}`;
  if (made?.status !== 'done') throw new Error(`the export ended ${made?.status}`);
  const measured: Measured = {
    customers,
    reading,
    pageRows,
    ms: run.ms,
    zipBytes: Number(made.bytes),
    peakHeapMb: (peakHeap - start.heapUsed) / 1048576,
    peakLiveMb: (peakLive - start.heapUsed) / 1048576,
    peakRssMb: (peakRss - start.rss) / 1048576,
  };
  console.log(`MEASURED ${JSON.stringify(measured)}`);
}

async function main() {
  const [customers, pageRows] = [
    Number(process.env.EXPORT_CUSTOMERS),
    Number(process.env.EXPORT_PAGE_ROWS),
  ];
  if (customers > 0)
    return child(
      customers,
      process.env.EXPORT_READING === 'keyset' ? 'keyset' : 'cursor',
      pageRows,
    );
  printMachine(await describeMachine());
  const results: Measured[] = [];
  for (const run of runs) {
    const spawned = spawnSync('npx', ['tsx', '--expose-gc', import.meta.filename], {
      env: {
        ...process.env,
        EXPORT_CUSTOMERS: String(run.customers),
        EXPORT_PAGE_ROWS: String(run.pageRows),
        EXPORT_READING: run.reading,
      },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = spawned.stdout.split('\n').find((l) => l.startsWith('MEASURED '));
    if (spawned.status !== 0 || !line)
      throw new Error(`the ${run.customers} run failed:\n${spawned.stdout}`);
    results.push(JSON.parse(line.slice('MEASURED '.length)) as Measured);
  }
  printTable(
    'Export all data: memory above the start of the run, by organisation size and page size',
    [
      'customers',
      'sections read by',
      'rows per page',
      'ms',
      'zip',
      'peak heap used',
      'held (heap after GC)',
      'peak RSS',
    ],
    results.map((r) => [
      fmt(r.customers),
      r.reading === 'cursor'
        ? 'one cursor each (the job on PostgreSQL)'
        : 'pages after the last keys',
      fmt(r.pageRows),
      fmt(r.ms),
      `${(r.zipBytes / 1048576).toFixed(1)} MB`,
      `+${r.peakHeapMb.toFixed(0)} MB`,
      `+${r.peakLiveMb.toFixed(0)} MB`,
      `+${r.peakRssMb.toFixed(0)} MB`,
    ]),
  );
}

await runBench('export-memory', 20 * 60_000, main);
