import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type postgres from 'postgres';
import {
  describeMachine,
  fmt,
  forEachConcurrently,
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
 * Issue 4 benchmark 2 — 50 clients pushing time entries at once, as RxDB pushes (batches of
 * 100 rows `{assumedMasterState, newDocumentState}`, one push at a time per client), 5% of
 * them conflicting with what the server already holds. Afterwards the database is checked:
 * nothing lost, nothing doubled, every conflicting document still in its master state.
 * Beside it, in the same run: plain 100-row multi-value INSERTs at the same concurrency, and
 * the same with a set-based conflict check.
 *
 *   npx tsx scripts/bench/push-under-contention.bench.ts
 */

const CLIENTS = 50;
const DOCS_PER_CLIENT = 1_000;
const BATCH = 100;
/** 5 rows of every 100 conflict: 5%. */
const isConflicting = (position: number) => position % 20 === 7;
/** Manager sessions the clients share (each holds manage-others-time-tracking). */
const SESSIONS = 5;
/** The app's pool (openDatabase's default, as server.ts opens it); the references get the same. */
const POOL = 10;

type Break = { startTime: string; endTime: string | null };
type TimeDoc = {
  id: string;
  orgId: string;
  userId: string;
  startTime: string;
  endTime: string | null;
  breakIntervals: Break[];
  updatedAt: string;
  _deleted: boolean;
};
type PushRow = { assumedMasterState: TimeDoc | null; newDocumentState: TimeDoc };
type Planned = { rows: PushRow[]; conflictIds: Set<string> };

const iso = (ms: number) => new Date(ms).toISOString();
const HOUR = 3_600_000;

// The app's part alone takes about two minutes here (see docs/benchmarks.md); the deadline
// leaves room for that on a busy machine.
await runBench('push-under-contention', 240_000, async () => {
  const machine = await describeMachine();
  printMachine(machine);

  const { database, sql } = await freshDatabase('push', { referenceConnections: POOL });
  const { org, staff: managers } = await seedOrgWithStaff(database.db, SESSIONS);

  // One staff member per client owns that client's entries (set-based insert).
  const owners = (
    await sql<Array<{ id: string }>>`
      with people as (
        insert into users (email, first_name, last_name)
        select 'staff-' || g || '@bench.test', 'Staff', 'Member ' || g from generate_series(1, ${CLIENTS}::int) g
        returning id
      )
      insert into memberships (org_id, user_id, kind, claims)
      select ${org.id}::uuid, id, 'staff', array['manage-own-time-tracking'] from people
      returning user_id as id`
  ).map((r) => r.id);

  // ── the plan: every client's 10 pushes, and the masters its conflicting rows meet ───────
  const masters = new Map<string, TimeDoc>();
  const expected = new Map<string, TimeDoc>();
  const plan: Planned[][] = owners.map((userId, client) =>
    Array.from({ length: DOCS_PER_CLIENT / BATCH }, (_, batch) => {
      const conflictIds = new Set<string>();
      const rows = Array.from({ length: BATCH }, (_, position): PushRow => {
        // 1,000 days from 2020: all in the past, as the server refuses stamps ahead of its clock.
        const start = Date.UTC(2020, 0, 1, 8) + (batch * BATCH + position) * 24 * HOUR + client * 60_000;
        const doc: TimeDoc = {
          id: randomUUID(),
          orgId: org.id,
          userId,
          startTime: iso(start),
          endTime: iso(start + 8 * HOUR),
          breakIntervals: [{ startTime: iso(start + 4 * HOUR), endTime: iso(start + 4.5 * HOUR) }],
          updatedAt: iso(start + 8 * HOUR),
          _deleted: false,
        };
        if (!isConflicting(position)) {
          expected.set(doc.id, doc);
          return { assumedMasterState: null, newDocumentState: doc };
        }
        // The server holds the finished entry; this device last saw it running and now
        // pushes its own ending on top of that stale state.
        masters.set(doc.id, doc);
        expected.set(doc.id, doc);
        conflictIds.add(doc.id);
        const stale: TimeDoc = { ...doc, endTime: null, breakIntervals: [], updatedAt: doc.startTime };
        return { assumedMasterState: stale, newDocumentState: { ...doc, endTime: iso(start + 9 * HOUR), updatedAt: iso(start + 9 * HOUR) } };
      });
      return { rows, conflictIds };
    }),
  );
  const totalRows = CLIENTS * DOCS_PER_CLIENT;
  const totalPushes = totalRows / BATCH;

  const masterList = [...masters.values()];
  await insertDocs(sql, 'time_entries', masterList);
  console.log(`Seeded ${fmt(masterList.length)} master documents (the ${fmt(masterList.length)} conflicts to come).`);

  // ── ours: the real app over HTTP ────────────────────────────────────────────────────────
  const { base } = await startApp(database);
  const cookies = await Promise.all(managers.map((m) => logIn(base, m.email, org.id)));

  const latencies: number[] = [];
  let conflictsReturned = 0;
  const wrongConflicts: string[] = [];
  const failures: string[] = [];
  const ours = await timed(() =>
    forEachConcurrently(CLIENTS, CLIENTS, async (client) => {
      const cookie = cookies[client % SESSIONS] ?? '';
      for (const { rows, conflictIds } of plan[client] ?? []) {
        const started = performance.now();
        const response = await fetch(`${base}/api/sync/time-entries/push`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json' },
          body: JSON.stringify(rows),
          signal: AbortSignal.timeout(60_000),
        });
        const text = await response.text();
        latencies.push(performance.now() - started);
        if (response.status !== 200) {
          failures.push(`${response.status} ${text.slice(0, 200)}`);
          continue;
        }
        const returned = JSON.parse(text) as TimeDoc[];
        conflictsReturned += returned.length;
        for (const doc of returned) if (!conflictIds.has(doc.id) || !isDeepStrictEqual(doc, masters.get(doc.id))) wrongConflicts.push(doc.id);
        if (returned.length !== conflictIds.size) wrongConflicts.push(`batch answered ${returned.length} of ${conflictIds.size} conflicts`);
      }
    }),
  );

  // ── afterwards, in the database ─────────────────────────────────────────────────────────
  const stored = await sql<
    Array<{ id: string; org_id: string; user_id: string; start_time: Date; end_time: Date | null; break_intervals: Break[]; updated_at: Date; deleted: boolean }>
  >`select id, org_id, user_id, start_time, end_time, break_intervals, updated_at, deleted from time_entries where org_id = ${org.id}`;
  const [dupes] = await sql<Array<{ n: number }>>`select (count(*) - count(distinct id))::int as n from time_entries`;
  const seen = new Set<string>();
  let mismatched = 0;
  let unexpected = 0;
  for (const row of stored) {
    seen.add(row.id);
    const want = expected.get(row.id);
    if (!want) {
      unexpected++;
      continue;
    }
    const got: TimeDoc = {
      id: row.id,
      orgId: row.org_id,
      userId: row.user_id,
      startTime: row.start_time.toISOString(),
      endTime: row.end_time ? row.end_time.toISOString() : null,
      breakIntervals: row.break_intervals,
      updatedAt: row.updated_at.toISOString(),
      _deleted: row.deleted,
    };
    if (!isDeepStrictEqual(got, want)) mismatched++;
  }
  const missing = [...expected.keys()].filter((id) => !seen.has(id)).length;
  const lost = missing + mismatched;
  const duplicated = (dupes?.n ?? 0) + unexpected;

  // ── references: the same rows, same concurrency, postgres.js with the app's pool size ───
  await sql`create table scratch_plain (like time_entries including defaults including indexes)`;
  await sql`create table scratch_checked (like time_entries including defaults including indexes)`;
  await sql`alter table scratch_plain drop column txid`;
  await sql`alter table scratch_checked drop column txid`;
  await insertDocs(sql, 'scratch_checked', masterList);

  const plainLatencies: number[] = [];
  const plain = await timed(() =>
    forEachConcurrently(CLIENTS, CLIENTS, async (client) => {
      for (const { rows } of plan[client] ?? []) {
        const started = performance.now();
        await insertDocs(sql, 'scratch_plain', rows.map((r) => r.newDocumentState));
        plainLatencies.push(performance.now() - started);
      }
    }),
  );

  let referenceConflicts = 0;
  const checkedLatencies: number[] = [];
  const checked = await timed(() =>
    forEachConcurrently(CLIENTS, CLIENTS, async (client) => {
      for (const { rows } of plan[client] ?? []) {
        const started = performance.now();
        const conflicts = await sql.begin(async (tx) => {
          const found = await tx<Array<{ id: string; org_id: string; user_id: string; start_time: Date; end_time: Date | null; break_intervals: Break[]; updated_at: Date; deleted: boolean }>>`
            select * from scratch_checked where id = any(${rows.map((r) => r.newDocumentState.id)}::uuid[]) order by id for update`;
          const master = new Map(found.map((m) => [m.id, m]));
          const accepted: TimeDoc[] = [];
          let conflicting = 0;
          for (const row of rows) {
            const m = master.get(row.newDocumentState.id);
            const current = m && {
              ...row.newDocumentState,
              startTime: m.start_time.toISOString(),
              endTime: m.end_time ? m.end_time.toISOString() : null,
              breakIntervals: m.break_intervals,
              updatedAt: m.updated_at.toISOString(),
              _deleted: m.deleted,
            };
            if (current && !isDeepStrictEqual(current, row.assumedMasterState)) conflicting++;
            else accepted.push(row.newDocumentState);
          }
          if (accepted.length) await insertDocs(tx, 'scratch_checked', accepted, true);
          return conflicting;
        });
        referenceConflicts += conflicts;
        checkedLatencies.push(performance.now() - started);
      }
    }),
  );
  const [plainCount] = await sql<Array<{ n: number }>>`select count(*)::int as n from scratch_plain`;
  const [checkedCount] = await sql<Array<{ n: number }>>`select count(*)::int as n from scratch_checked`;

  // ── report ──────────────────────────────────────────────────────────────────────────────
  const rowsPerS = (ms: number) => totalRows / (ms / 1000);
  const line = (name: string, ms: number, lat: number[], conflicts: string) => [
    name,
    `${fmt(ms / 1000, 2)} s`,
    fmt(rowsPerS(ms)),
    fmt(totalPushes / (ms / 1000)),
    `${fmt(percentile(lat, 50), 1)} ms`,
    `${fmt(percentile(lat, 99), 1)} ms`,
    conflicts,
    ratio(ours.ms / ms),
  ];
  printTable(
    `${CLIENTS} concurrent clients × ${fmt(DOCS_PER_CLIENT)} time entries in pushes of ${BATCH} (${fmt(totalRows)} rows, ${fmt(totalPushes)} pushes, 5% conflicting); pool ${POOL}`,
    ['method', 'time', 'rows/s', 'pushes/s', 'p50 / push', 'p99 / push', 'conflicts', 'ours ÷ this (time)'],
    [
      line('ours: POST /api/sync/time-entries/push (real app, HTTP)', ours.ms, latencies, `${fmt(conflictsReturned)} of ${fmt(masters.size)}`),
      line('ref: 100-row multi-value INSERT', plain.ms, plainLatencies, '—'),
      line('ref: same + conflict check (SELECT … FOR UPDATE, compare, upsert)', checked.ms, checkedLatencies, `${fmt(referenceConflicts)} of ${fmt(masters.size)}`),
    ],
  );
  printTable('Checked afterwards in the database', ['check', 'result'], [
    ['pushes answered other than 200', fmt(failures.length)],
    ['conflicts returned (must be 5% = ' + fmt(masters.size) + ')', fmt(conflictsReturned)],
    ['conflict answers not equal to the master', fmt(wrongConflicts.length)],
    ['rows in the organisation (expected ' + fmt(expected.size) + ')', fmt(stored.length)],
    ['lost (missing, or not in the pushed / master state)', `${fmt(lost)} (missing ${missing}, wrong state ${mismatched})`],
    ['duplicated (same id twice, or rows nobody pushed)', fmt(duplicated)],
    ['reference tables: rows', `${fmt(plainCount?.n ?? 0)} plain, ${fmt(checkedCount?.n ?? 0)} checked`],
  ]);
  if (failures.length) console.log(`First failures: ${failures.slice(0, 3).join(' | ')}`);
  const ok = failures.length === 0 && conflictsReturned === masters.size && wrongConflicts.length === 0 && lost === 0 && duplicated === 0;
  console.log(ok ? 'Correctness: OK — nothing lost, nothing duplicated, every conflict answered with its master.' : 'Correctness: FAILED (see above).');
  if (!ok) process.exitCode = 1;
});

/** One multi-value INSERT of `docs` (optionally an upsert), as a prepared statement. */
async function insertDocs(sql: postgres.Sql | postgres.TransactionSql, table: string, docs: readonly TimeDoc[], upsert = false) {
  if (docs.length === 0) return;
  const params: Array<string | boolean | null> = [];
  const tuples = docs.map((d) => {
    const at = params.length;
    params.push(d.id, d.orgId, d.userId, d.startTime, d.endTime, JSON.stringify(d.breakIntervals), d.updatedAt, d._deleted);
    return `($${at + 1}::uuid, $${at + 2}::uuid, $${at + 3}::uuid, $${at + 4}::timestamptz, $${at + 5}::timestamptz, $${at + 6}::text::jsonb, $${at + 7}::timestamptz, $${at + 8}::boolean)`;
  });
  const onConflict = upsert
    ? ' on conflict (id) do update set start_time = excluded.start_time, end_time = excluded.end_time, break_intervals = excluded.break_intervals, updated_at = excluded.updated_at, deleted = excluded.deleted'
    : '';
  await sql.unsafe(
    `insert into ${table} (id, org_id, user_id, start_time, end_time, break_intervals, updated_at, deleted) values ${tuples.join(', ')}${onConflict}`,
    params,
    { prepare: true },
  );
}
