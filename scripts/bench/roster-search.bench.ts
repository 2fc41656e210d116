import { randomUUID } from 'node:crypto';
import { sql as dsql } from 'drizzle-orm';
import type { RosterSearchResponse } from '@platform/schema/crm/crm.zod';
import {
  searchRoster,
  type RosterSearch,
} from '../../sync-server/src/crm/roster-search.repository.ts';
import { rowsOf } from '../../sync-server/src/db/open-database.ts';
import {
  describeMachine,
  fmt,
  freshDatabase,
  logIn,
  percentile,
  printMachine,
  printTable,
  ratio,
  runBench,
  seedOrgWithStaff,
  startApp,
  timed,
} from './bench-kit.ts';

/**
 * Issue 7 benchmark — CRM roster search with 100,000 customers in one organisation
 * (decision 0012; target p95 < 50 ms server time). Server time = searchRoster() on the app's
 * own database pool (what a request spends after auth); beside it, in the same run, the floor
 * of a plain primary-key SELECT on the same pool, and the whole HTTP request for a few queries.
 *
 *   npx tsx scripts/bench/roster-search.bench.ts
 */

const CUSTOMERS = 100_000;
const SEED_CHUNK = 5_000;
const RUNS = 40;

const FIRST = [
  'James',
  'Mary',
  'John',
  'Patricia',
  'Robert',
  'Jennifer',
  'Michael',
  'Linda',
  'William',
  'Elizabeth',
  'David',
  'Barbara',
  'Richard',
  'Susan',
  'Joseph',
  'Jessica',
  'Thomas',
  'Sarah',
  'Charles',
  'Karen',
  'Jonathan',
  'Joanna',
  'Maria',
  'Ahmed',
  'Yuki',
  'Olga',
  'Pierre',
  'Chloe',
  'Mateo',
  'Aisha',
];
const LAST = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Torres',
  'Nguyen',
  'Hill',
  'Flores',
];

await runBench('roster-search', 400_000, async () => {
  const machine = await describeMachine();
  printMachine(machine);
  const { database, sql } = await freshDatabase('crm');
  const { org, staff } = await seedOrgWithStaff(database.db, 1);
  const viewer = staff[0]!;

  // ── seed: 100,000 people and their roster items (names × numbers, emails, phones, tags) ──
  const seeded = await timed(async () => {
    for (let from = 1; from <= CUSTOMERS; from += SEED_CHUNK) {
      const to = Math.min(CUSTOMERS, from + SEED_CHUNK - 1);
      await sql`
        with people as (
          insert into users (email, first_name, last_name)
          select 'customer' || g || '@bench.test',
                 (${FIRST}::text[])[1 + (g * 7) % ${FIRST.length}],
                 (${LAST}::text[])[1 + (g * 13) % ${LAST.length}] || case when g % 3 = 0 then '' else chr(97 + g % 26) end
          from generate_series(${from}::int, ${to}::int) g
          returning id, email, first_name, last_name
        )
        insert into roster_items (org_id, user_id, first_name, last_name, email, phone, tags, updated_at)
        select ${org.id}, id, first_name, last_name, email,
               '+1 555 ' || lpad((abs(hashtext(email)) % 10000000)::text, 7, '0'),
               case when abs(hashtext(email)) % 10 = 0 then array['vip'] else '{}'::text[] end, now()
        from people`;
    }
    await sql`analyze roster_items`;
  });
  console.log(`seeded ${CUSTOMERS} customers in ${fmt(seeded.ms / 1000, 1)} s`);

  const [sample] = await sql<Array<{ id: string; email: string; phone: string }>>`
    select id, email, phone from roster_items where org_id = ${org.id} order by id limit 1 offset 54321`;
  const base: RosterSearch = { orgId: org.id, q: '', sort: 'lastName', dir: 'asc', limit: 50 };
  const cases: Array<[string, Partial<RosterSearch>]> = [
    ['first page, no search (lastName)', {}],
    ['prefix, 2 letters "jo"', { q: 'jo' }],
    ['prefix "smit"', { q: 'smit' }],
    ['full name "maria garcia"', { q: 'maria garcia' }],
    ['typo "jonathn"', { q: 'jonathn' }],
    ['typo "rodriguex"', { q: 'rodriguex' }],
    ['email prefix', { q: sample!.email.slice(0, 14) }],
    ['phone digits', { q: sample!.phone.slice(-7) }],
    ['tag filter "vip"', { tag: 'vip' }],
    ['no match "zzqx"', { q: 'zzqx' }],
  ];
  // Deep page: follow the keyset cursor 20 pages in.
  let cursor: string | null = null;
  for (let i = 0; i < 20; i++)
    cursor = (await searchRoster(database.db, { ...base, cursor: cursor ?? undefined })).nextCursor;
  cases.push(['keyset page 21 (no search)', { cursor: cursor ?? undefined }]);

  const floorIds = (
    await sql<Array<{ id: string }>>`select id from roster_items order by random() limit ${RUNS}`
  ).map((r) => r.id);
  const floor: number[] = [];
  for (const id of floorIds) {
    const { ms } = await timed(() =>
      database.db.execute(dsql`select * from roster_items where id = ${id}`),
    );
    floor.push(ms);
  }
  const floorP95 = percentile(floor, 95);

  const rows: string[][] = [];
  for (const [label, extra] of cases) {
    const times: number[] = [];
    let last: RosterSearchResponse | undefined;
    for (let i = 0; i < RUNS; i++) {
      const { ms, result } = await timed(() => searchRoster(database.db, { ...base, ...extra }));
      if (i >= 5) times.push(ms); // the first runs warm caches
      last = result;
    }
    const p95 = percentile(times, 95);
    rows.push([
      label,
      String(last?.rows.length ?? 0),
      `${last?.total ?? 0}${last?.totalCapped ? '+' : ''}`,
      fmt(percentile(times, 50), 1),
      fmt(p95, 1),
      ratio(p95 / floorP95),
      p95 < 50 ? 'yes' : 'NO',
    ]);
  }
  rows.push([
    'floor: SELECT by primary key',
    '1',
    '1',
    fmt(percentile(floor, 50), 2),
    fmt(floorP95, 2),
    '1.00×',
    '',
  ]);
  printTable(
    'roster search, server time (ms), 100,000 customers in one organisation',
    ['query', 'rows', 'total', 'p50', 'p95', '÷ floor', '< 50 ms'],
    rows,
  );

  // ── the whole request over HTTP (auth, validation, JSON) for two queries ──────────────
  const { base: url } = await startApp(database);
  const cookie = await logIn(url, viewer.email, org.id);
  const http: string[][] = [];
  for (const q of ['jo', 'jonathn', `${randomUUID().slice(0, 4)}`]) {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const { ms, result } = await timed(() =>
        fetch(`${url}/api/crm/customers?q=${encodeURIComponent(q)}`, { headers: { cookie } }),
      );
      if (result.status !== 200) throw new Error(`search answered ${result.status}`);
      await result.arrayBuffer();
      if (i >= 5) times.push(ms);
    }
    http.push([
      `GET /api/crm/customers?q=${q}`,
      fmt(percentile(times, 50), 1),
      fmt(percentile(times, 95), 1),
    ]);
  }
  printTable('the whole HTTP request (ms)', ['request', 'p50', 'p95'], http);
  const plan = rowsOf<{ 'QUERY PLAN': string }>(
    await database.db.execute(
      dsql.raw(
        `explain analyze select id from roster_items where org_id = '${org.id}' and deleted = false and (lower(first_name) like 'jo%' or lower(last_name) like 'jo%' or coalesce(email, '') like 'jo%') order by lower(last_name), id limit 51`,
      ),
    ),
  );
  console.log(plan.map((p) => p['QUERY PLAN']).join('\n'));
});
