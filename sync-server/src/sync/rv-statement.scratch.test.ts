import { randomUUID } from 'node:crypto';
import { appendFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, getTableColumns, getTableName, inArray, sql, type SQL } from 'drizzle-orm';
import postgres from 'postgres';
import { claims as allClaims } from '@platform/schema/organizations/claims';
import { openDatabase, rowsOf, type Database, type Db } from '../db/open-database.ts';
import { createTestDatabase } from '../testing/test-database.ts';
import type { Checkpoint } from '@platform/schema/sync/sync.zod';
import type { Actor, Scope } from './actor.ts';
import type { AnyReplicatedCollection } from './collection-definition.ts';
import { collectionDefinitions } from './collections/definitions.ts';
import { pullChanges } from './pull.ts';
import { pullBound } from './pull-bound.ts';
import { readDocument } from './read-document.ts';

const KIND = process.env.RV_KIND ?? 'postgres';
const OUT = `/tmp/rv/plans-${KIND}.txt`;

// ---- verbatim copy of pull.ts rowsAfter (checked by diff) ----
async function rowsAfter(
  db: Db,
  collection: AnyReplicatedCollection,
  scope: Scope,
  checkpoint: Checkpoint | null,
  limit: number,
): Promise<{ rows: Array<{ id: string; txid: string }>; bound: { heldByEnded: boolean } }> {
  const { table } = collection;
  const conditions: SQL[] = [eq(table.orgId, scope.orgId), sql`${table.txid} < pull_bound.xid`];
  if (scope.ownerIds) conditions.push(inArray(collection.ownerColumn, [...scope.ownerIds]));
  if (scope.rowFilter) conditions.push(scope.rowFilter);
  if (checkpoint)
    conditions.push(
      sql`(${table.txid}, ${table.id}) > (${String(checkpoint.lsn)}::xid8, ${checkpoint.id}::uuid)`,
    );
  const page = db
    .select()
    .from(table)
    .where(and(...conditions))
    .orderBy(asc(table.txid), asc(table.id))
    .limit(limit)
    .as(getTableName(table));
  const answer = await db
    .select({ heldByEnded: sql<boolean>`pull_bound.held_by_ended`, ...getTableColumns(table) })
    .from(
      sql`(
        select looked.xid,
          case
            when looked.xid < pg_snapshot_xmax(pg_current_snapshot()) and not pg_is_in_recovery()
            then pg_xact_status(looked.xid) is distinct from 'in progress'
            else false
          end as held_by_ended
        from (select ${pullBound()} as xid offset 0) as looked
        offset 0
      ) as pull_bound`,
    )
    .leftJoinLateral(page, sql`true`)
    .orderBy(asc(table.txid), asc(table.id));
  const [first] = answer;
  if (!first) throw new Error('sync: the pull statement returned no bound');
  return {
    // An empty page is the bound's row alone, every column of the page null (LEFT JOIN).
    rows: (answer as unknown as Array<{ id: string | null; txid: string }>).flatMap((row) =>
      row.id !== null ? [row as { id: string; txid: string }] : [],
    ),
    bound: { heldByEnded: first.heldByEnded },
  };
}
// ---- end copy ----

type Logged = { text: string; params: unknown[] };
function capture(db: Db): Logged[] {
  const log: Logged[] = [];
  (db as unknown as { session: { logger: unknown } }).session.logger = {
    logQuery: (text: string, params: unknown[]) => log.push({ text, params }),
  };
  return log;
}

const rnd = (n: number) => Math.floor(Math.random() * n);
const pick = <T,>(xs: readonly T[]): T => xs[rnd(xs.length)] as T;
const weirdText = () =>
  pick(['', 'plain', "o'quote", 'comma,{brace}"dq"\\bs', 'ünïcødé 😀', 'NULL', 'x'.repeat(300), ' spaced ']);
const isoAt = () =>
  pick([
    '2026-11-30T12:34:56.789Z',
    '1970-01-01T00:00:00.000Z',
    '2001-02-03T04:05:06.007Z',
    '9999-12-31T23:59:59.999Z',
    '1999-12-31T23:59:59.500Z',
    new Date(Date.now() + (rnd(200) - 100) * 3_600_000).toISOString(),
  ]);

describe(`every collection's pull on ${KIND}`, () => {
  let database: Database;
  let db: Db;
  let raw: postgres.Sql | null = null;
  const orgs: string[] = [];
  const owners: string[] = [];
  const occurrenceIds: string[] = [];

  beforeAll(async () => {
    writeFileSync(OUT, '');
    database = await createTestDatabase(KIND as 'postgres' | 'pglite');
    db = database.db;
    if (KIND === 'postgres') raw = postgres((database as { url?: string }).url!, { max: 1, onnotice: () => {} });
    const exec = async (text: string, params: unknown[] = []) =>
      raw ? [...(await raw.unsafe(text, params as never[]))] : rowsOf<Record<string, unknown>>(await database.executeSql(text, params));
    for (let i = 0; i < 2; i++) {
      const [o] = await exec(`insert into organizations (label) values ($1) returning id`, [`Org ${i}`]);
      orgs.push(String(o!.id));
    }
    for (let i = 0; i < 5; i++) {
      const [u] = await exec(
        `insert into users (email, first_name, last_name) values ($1, 'A', 'B') returning id`,
        [`u${i}-${randomUUID()}@x.test`],
      );
      owners.push(String(u!.id));
    }
    // column catalogue
    const tables = [...new Set(Object.values(collectionDefinitions).map((c) => getTableName(c.table)))];
    const cols = await exec(
      `select c.relname as t, a.attname as c, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as nn,
              (d.adbin is not null) as def, a.attgenerated <> '' as gen
         from pg_class c join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
         left join pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
         where c.relname = any($1::text[]) and c.relkind = 'r' order by c.relname, a.attnum`,
      [tables],
    );
    // occurrences first (bookings' rowFilter refers to them)
    const order = ['class_occurrences', ...tables.filter((t) => t !== 'class_occurrences')];
    const valueFor = (t: string, c: string, type: string, nn: boolean, org: string, id: string): unknown => {
      if (c === 'id') return id;
      if (c === 'org_id') return org;
      if (c === 'txid') return undefined;
      if (['user_id', 'customer_user_id', 'payer_user_id'].includes(c)) return pick(owners);
      if (t === 'class_occurrences' && c === 'class_id') return '__class';
      if (t === 'class_occurrences' && c === 'appointment_type_id') return '__appt';
      if (t === 'class_occurrences' && ['booked_count', 'waitlist_count'].includes(c)) return 0;
      if (t === 'class_occurrences' && c === 'ends_at')
        return new Date(Date.now() + (rnd(96) - 48) * 3_600_000).toISOString();
      if (t === 'bookings' && c === 'occurrence_id')
        return occurrenceIds.length && rnd(5) ? pick(occurrenceIds) : randomUUID();
      if (!nn && rnd(3) === 0) return null;
      if (type === 'uuid') return randomUUID();
      if (type === 'uuid[]') return `{${Array.from({ length: rnd(3) }, () => randomUUID()).join(',')}}`;
      if (type === 'text[]') return pick(['{}', '{a,b}', '{"comma,x","q\\"d",NULL,"ü"}', '{""}']);
      if (type === 'text') return weirdText();
      if (type === 'integer') return t === 'punch_card_credits' ? pick([1, -3, 100000]) : 1 + rnd(900);
      if (type === 'boolean') return rnd(2) === 0;
      if (type === 'date') return pick(['2026-11-30', '1970-01-01', '9999-12-31', '2000-02-29']);
      if (type.startsWith('timestamp')) return isoAt();
      if (type === 'jsonb')
        return JSON.stringify(
          pick([[], {}, { a: [1, 2.5, null, 'x'], b: { c: 'ü' } }, [{ from: '09:00', to: '17:00' }], { big: 12345678901234567890 }, 'str', 0]),
        );
      throw new Error(`no value for ${t}.${c} ${type}`);
    };
    const inTx = async (fn: (e: typeof exec) => Promise<void>) => {
      if (raw) {
        await raw.begin(async (tx) => {
          await tx.unsafe(`set local session_replication_role = replica`);
          await fn(async (text, params = []) => [...(await tx.unsafe(text, params as never[]))]);
        });
      } else {
        await exec('begin');
        await exec('set local session_replication_role = replica');
        await fn(exec);
        await exec('commit');
      }
    };
    for (const t of order) {
      const tcols = cols.filter((r) => r.t === t);
      for (let txn = 0; txn < 12; txn++) {
        await inTx(async (e) => {
          // 1-3 rows per transaction (ties in txid)
          for (let k = 0, n = 1 + rnd(3); k < n; k++) {
            const org = pick(orgs);
            const id = randomUUID();
            const names: string[] = [];
            const vals: unknown[] = [];
            const casts: string[] = [];
            const isClass = rnd(2) === 0;
            for (const col of tcols) {
              if (col.gen) continue;
              let v = valueFor(t, String(col.c), String(col.type), Boolean(col.nn), org, id);
              if (v === undefined) continue;
              if (v === '__class') v = isClass ? randomUUID() : null;
              if (v === '__appt') v = isClass ? null : randomUUID();
              names.push(`"${String(col.c)}"`);
              vals.push(v);
              casts.push(`$${vals.length}::${String(col.type)}`);
            }
            await e(`insert into ${t} (${names.join(',')}) values (${casts.join(",")}) on conflict do nothing`, vals);
            if (t === 'class_occurrences' && org === orgs[0]) occurrenceIds.push(id);
          }
        });
      }
    }
  }, 120_000);
  afterAll(async () => {
    await raw?.end();
    await database?.close();
  });

  const actors = (): Array<[string, Actor]> => [
    ['staff-all', { userId: owners[0]!, view: 'org', orgId: orgs[0]!, claims: [...allClaims], familyUserIds: [owners[0]!] }],
    ['staff-own', { userId: owners[1]!, view: 'org', orgId: orgs[0]!, claims: ['manage-own-time-tracking'], familyUserIds: [owners[1]!] }],
    ['customer-family', { userId: owners[2]!, view: 'customer', orgId: orgs[0]!, claims: [], familyUserIds: [owners[2]!, owners[3]!] }],
    ['kiosk', { userId: owners[0]!, view: 'kiosk', orgId: orgs[0]!, claims: [], familyUserIds: [] }],
    ['staff-all-org1', { userId: owners[0]!, view: 'org', orgId: orgs[1]!, claims: [...allClaims], familyUserIds: [owners[0]!] }],
  ];

  const plainRows = async (collection: AnyReplicatedCollection, scope: Scope) => {
    const { table } = collection;
    const conds: SQL[] = [eq(table.orgId, scope.orgId)];
    if (scope.ownerIds) conds.push(inArray(collection.ownerColumn, [...scope.ownerIds]));
    if (scope.rowFilter) conds.push(scope.rowFilter);
    return db.select().from(table).where(and(...conds)).orderBy(asc(table.txid), asc(table.id));
  };

  it('hands out exactly the plain select rows, mapped the same, for every collection and scope', async () => {
    let combos = 0;
    let rowsCompared = 0;
    for (const collection of Object.values(collectionDefinitions)) {
      for (const [who, actor] of actors()) {
        let scope: Scope;
        try {
          scope = collection.scopeFor(actor);
        } catch {
          continue;
        }
        combos++;
        const plain = await plainRows(collection, scope);
        // whole statement, no checkpoint
        const log = capture(db);
        const got = await rowsAfter(db, collection, scope, null, 100_000);
        expect(got.bound.heldByEnded).toBe(false);
        expect(got.rows.map((r) => { const { heldByEnded: _, ...rest } = r as Record<string, unknown>; return rest; })).toEqual(plain);
        // same keys and same JS types per column
        for (let i = 0; i < plain.length; i++) {
          const a = plain[i] as Record<string, unknown>;
          const b = got.rows[i] as Record<string, unknown>;
          for (const k of Object.keys(a)) {
            expect(Object.prototype.toString.call(b[k]), `${collection.name}.${k}`).toBe(Object.prototype.toString.call(a[k]));
          }
        }
        rowsCompared += plain.length;
        // EXPLAIN of the real statement (from pullChanges)
        log.length = 0;
        await pullChanges(db, collection, scope, null, 5);
        const withCp = await (async () => { const l2 = capture(db); const p = await pullChanges(db, collection, scope, plain.length ? { id: (plain[0] as {id:string}).id, lsn: Number((plain[0] as {txid:string}).txid) } : { id: randomUUID(), lsn: 1 }, 5); void p; return l2[0]!; })();
        for (const stmt of [log[0]!, withCp]) if (raw) {
          const plan = (await raw.unsafe(`explain (verbose, costs off) ${stmt.text}`, stmt.params as never[])).map((r) => r['QUERY PLAN']).join('\n');
          appendFileSync(OUT, `\n===== ${collection.name} / ${who} (ownerIds=${scope.ownerIds ? scope.ownerIds.length : 'null'}, rowFilter=${!!scope.rowFilter})\n${stmt.text}\n${plan}\n`);
          const boundCalls = (plan.match(/sync_pull_bound\(/g) ?? []).length;
          const statusCalls = (plan.match(/pg_xact_status\(/g) ?? []).length;
          expect(boundCalls, `${collection.name}/${who} bound calls in plan`).toBe(1);
          void statusCalls;
        } else {
          const plan = rowsOf<Record<string, string>>(await database.executeSql(`explain (verbose, costs off) ${stmt.text}`, stmt.params)).map((r) => r['QUERY PLAN']).join('\n');
          appendFileSync(OUT, `\n===== ${collection.name} / ${who}\n${plan}\n`);
        }
        // paged pulls with several batch sizes reproduce the plain order, documents equal readDocument(plain)
        const expectedDocs = plain.flatMap((r) => { const d = readDocument(collection, r); return 'doc' in d ? [d.doc] : []; });
        const expectedUnreadable = plain.flatMap((r) => { const d = readDocument(collection, r); return 'doc' in d ? [] : [(r as { id: string }).id]; });
        for (const batch of [1, 2, 3, 7, 50]) {
          let cp: Checkpoint | null = null;
          const docs: unknown[] = [];
          const unreadable: string[] = [];
          for (let guard = 0; guard < 1000; guard++) {
            const page = await pullChanges(db, collection, scope, cp, batch, (u) => unreadable.push(u.id));
            docs.push(...page.documents);
            expect(page.documents.length).toBeLessThanOrEqual(batch);
            if (page.documents.length < batch) { cp = page.checkpoint; break; }
            cp = page.checkpoint;
          }
          expect(docs, `${collection.name}/${who}/batch ${batch}`).toEqual(expectedDocs);
          expect(unreadable).toEqual(expectedUnreadable);
          // final checkpoint is the last plain row
          const last = plain.at(-1) as { id: string; txid: string } | undefined;
          if (last) expect(cp).toEqual({ id: last.id, lsn: Number(last.txid) });
          // after the end: empty page, same checkpoint, no phantom document
          const after = await pullChanges(db, collection, scope, cp, batch);
          expect(after.documents).toEqual([]);
          expect(after.checkpoint).toEqual(cp);
        }
        appendFileSync(OUT, `-- ${collection.name}/${who}: ${plain.length} rows, ${expectedDocs.length} documents, ${expectedUnreadable.length} unreadable\n`);
      }
    }
    appendFileSync(OUT, `\nCOMBOS ${combos} ROWS ${rowsCompared}\n`);
    expect(combos).toBeGreaterThan(30);
  }, 300_000);

  it.runIf(KIND === 'postgres')('looks at the bound once per statement, asks pg_xact_status at most once, re-looks at most twice', async () => {
    const url = (database as { url?: string }).url!;
    await raw!.unsafe(`
      alter function sync_pull_bound(pg_snapshot) rename to sync_pull_bound_exact;
      create sequence bound_looks; create sequence status_looks;
      create table rv_ctl (k text primary key, v text not null);
      create function sync_pull_bound(snapshot pg_snapshot) returns xid8 language plpgsql stable as $$
      begin perform nextval('bound_looks'); return sync_pull_bound_exact(snapshot); end $$;
      create function public.pg_xact_status(x xid8) returns text language plpgsql volatile as $$
      declare forced text;
      begin perform nextval('status_looks');
        select v into forced from rv_ctl where k = 'status';
        if forced = 'error' then raise exception 'forced pg_xact_status error'; end if;
        return coalesce(forced, pg_catalog.pg_xact_status(x)); end $$;
    `);
    const dbname = new URL(url).pathname.slice(1);
    await raw!.unsafe(`alter database ${dbname} set search_path = public, pg_catalog`);
    const fresh = await openDatabase({ databaseUrl: url, maxConnections: 3 });
    const fdb = fresh.db;
    const counter = async (seq: string) => Number((await raw!.unsafe(`select last_value - (not is_called)::int as n from ${seq}`))[0]!.n);
    let last = { b: 0, s: 0 };
    const since = async () => { const now = { b: await counter('bound_looks'), s: await counter('status_looks') }; const d = { b: now.b - last.b, s: now.s - last.s }; last = now; return d; };
    // a writer of this database held open, and one later transaction finished: bound = writer < xmax
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let took!: () => void;
    const taken = new Promise<void>((r) => (took = r));
    const holder = fresh.db.transaction(async (tx) => { await tx.execute(sql`select pg_current_xact_id()`); took(); await gate; });
    await taken;
    await fresh.executeSql(`select pg_current_xact_id()`);
    const results: string[] = [];
    try {
      for (const mode of ['real', 'committed', 'error'] as const) {
        await raw!.unsafe(`delete from rv_ctl`);
        if (mode !== 'real') await raw!.unsafe(`insert into rv_ctl values ('status', $1)`, [mode]);
        for (const collection of Object.values(collectionDefinitions)) {
          for (const [who, actor] of actors()) {
            let scope: Scope;
            try { scope = collection.scopeFor(actor); } catch { continue; }
            for (const batch of [1, 3, 1000]) {
              await since();
              const log = capture(fdb);
              let err = '';
              let page: Awaited<ReturnType<typeof pullChanges>> | null = null;
              try { page = await pullChanges(fdb, collection, scope, null, batch); } catch (e) { err = String((e as Error).message); }
              const d = await since();
              const statements = log.length;
              results.push(`${mode} ${collection.name}/${who}/b${batch}: statements=${statements} looks=${d.b} status=${d.s} docs=${page?.documents.length ?? '-'} ${err}`);
              expect(d.b, `${mode} ${collection.name}/${who}`).toBe(statements);
              expect(d.s).toBe(statements);

              if (mode === 'error') expect(err).toMatch(/forced/);
            }
          }
        }
      }
    } finally {
      release();
      await holder;
      writeFileSync('/tmp/rv/looks.txt', results.join('\n'));
      await fresh.close();
    }
  }, 300_000);
});
