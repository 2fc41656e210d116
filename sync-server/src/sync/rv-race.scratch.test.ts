import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, getTableColumns, getTableName, inArray, sql, type SQL } from 'drizzle-orm';
import { pullBound } from './pull-bound.ts';
import type { AnyReplicatedCollection } from './collection-definition.ts';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { allTables } from '@platform/schema/db';
import type { Checkpoint } from '@platform/schema/sync/sync.zod';
import { rowsOf, type Database, type Db } from '../db/open-database.ts';
import { createTestDatabase } from '../testing/test-database.ts';
import { insertTestOrg, insertTestUser } from '../testing/auth-fixtures.ts';
import type { Scope } from './actor.ts';
import { collectionDefinitions } from './collections/definitions.ts';
import { pullChanges } from './pull.ts';
import { ChangeHub, notifyChange } from './change-feed.ts';

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

/** pullChanges as before the change: no second look (all rows readable here). */
async function pullNoRelook(db: Db, collection: AnyReplicatedCollection, scope: Scope, checkpoint: Checkpoint | null, batchSize: number) {
  const { rows } = await rowsAfter(db, collection, scope, checkpoint, batchSize);
  let position = checkpoint;
  const documents: Array<{ id: string }> = [];
  for (const row of rows) { position = { id: row.id, lsn: Number(row.txid) }; documents.push({ id: row.id }); }
  return { documents, checkpoint: position };
}

const ROUNDS = Number(process.env.RV_ROUNDS ?? 500); // per writer in `here`
const HERE_WRITERS = 6;
const ELSEWHERE_CHURNERS = Number(process.env.RV_CHURN ?? 4);
const HERE_CHURNERS = 2;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rnd = (n: number) => Math.floor(Math.random() * n);

/** A drizzle instance like openDatabase's (same session settings), counting its statements. */
function countingDb(url: string, max: number) {
  const client = postgres(url, {
    max,
    onnotice: () => {},
    connection: { TimeZone: 'UTC', DateStyle: 'ISO, MDY', plan_cache_mode: 'force_custom_plan' },
  });
  const counter = { statements: 0 };
  const db = drizzlePostgres(client, {
    schema: allTables,
    logger: { logQuery: () => void (counter.statements += 1) },
  }) as unknown as Db;
  return { db, counter, close: () => client.end({ timeout: 5 }) };
}

describe.runIf(process.env.DATABASE_URL)('race: no skip, with writers here and elsewhere', () => {
  let here: Database & { url?: string };
  let elsewhere: Database & { url?: string };
  let orgId = '';
  const users: string[] = [];
  const collection = collectionDefinitions['time-entries'];
  let scope: Scope;

  beforeAll(async () => {
    [here, elsewhere] = await Promise.all([
      createTestDatabase('postgres', { maxConnections: 24 }),
      createTestDatabase('postgres', { maxConnections: 24 }),
    ]);
    const org = await insertTestOrg(here.db);
    orgId = org.id;
    for (let i = 0; i < HERE_WRITERS; i++) users.push((await insertTestUser(here.db)).id);
    scope = { orgId, ownerIds: null, writable: true };
    await here.executeSql('create table rv_churn (n int)');
    await elsewhere.executeSql('create table rv_churn (n int)');
  }, 60_000);
  afterAll(async () => {
    await here?.close();
    await elsewhere?.close();
  });

  it('every committed row reaches every puller once, in (txid, id) order; notices are followed', async () => {
    const committed = new Map<string, string>(); // id -> txid
    const byTxid = new Map<string, string[]>();
    let writing = true;
    const stats = { rolledBack: 0, savepoints: 0, hereTx: 0, elsewhereTx: 0, hereChurn: 0 };

    const writer = async (w: number) => {
      for (let i = 0; i < ROUNDS; i++) {
        const rollback = rnd(10) === 0;
        let rows: string[] = [];
        let txid = '';
        try {
          await here.db.transaction(async (tx) => {
            rows = [];
            if (rnd(2)) await tx.execute(sql`select pg_current_xact_id()`); // take the id early
            if (rnd(3) === 0) await sleep(rnd(6));
            const n = 1 + rnd(3);
            for (let r = 0; r < n; r++) {
              const id = randomUUID();
              const start = new Date(Date.UTC(2026, 0, 1) + (w * 100000 + i * 10 + r) * 60_000).toISOString();
              const end = new Date(Date.parse(start) + 30_000).toISOString();
              const insert = sql`insert into time_entries (id, org_id, user_id, start_time, end_time, updated_at)
                values (${id}, ${orgId}, ${users[w]}, ${start}, ${end}, ${end})`;
              if (rnd(4) === 0) {
                stats.savepoints++;
                await tx.transaction(async (sp) => { await sp.execute(insert); });
              } else await tx.execute(insert);
              rows.push(id);
              if (rnd(2)) await sleep(rnd(3));
            }
            const [x] = rowsOf<{ x: string }>(await tx.execute(sql`select pg_current_xact_id()::text as x`));
            txid = x!.x;
            await notifyChange(tx, { collection: 'time-entries', orgId, ownerIds: [] });
            if (rollback) throw new Error('rv rollback');
          });
          stats.hereTx++;
          for (const id of rows) committed.set(id, txid);
          byTxid.set(txid, rows);
        } catch (e) {
          if ((e as Error).message !== 'rv rollback') throw e;
          stats.rolledBack++;
        }
      }
    };
    const churn = async (database: Database, key: 'elsewhereTx' | 'hereChurn') => {
      while (writing) {
        await database.db.transaction(async (tx) => {
          await tx.execute(sql`insert into rv_churn values (1)`);
          const hold = rnd(4);
          if (hold === 1) await sleep(rnd(5));
          if (hold === 2) await tx.execute(sql`select pg_sleep(${Math.random() * 0.003})`);
        }).catch(() => {});
        stats[key]++;
      }
    };

    // Pullers following checkpoints.
    type PullerResult = { seen: string[]; pulls: number; statements: number; relooks: number; batch: number };
    const puller = async (batch: number): Promise<PullerResult> => {
      const { db, counter, close } = countingDb(here.url!, 2);
      const seen: string[] = [];
      let checkpoint: Checkpoint | null = null;
      let pulls = 0;
      let relooks = 0;
      const step = async () => {
        const before = counter.statements;
        const page = await pullChanges(db, collection, scope, checkpoint, batch, (u) => { throw new Error(`unreadable ${u.id} ${u.reason}`); });
        pulls++;
        const used = counter.statements - before;
        // every page but the last was full and returned at once; any more statements were second looks
        if (used > 1) relooks += used - 1;
        seen.push(...page.documents.map((d) => d.id));
        checkpoint = page.checkpoint;
        return page.documents.length;
      };
      while (writing) await step();
      const deadline = Date.now() + 15_000;
      while (seen.length < committed.size && Date.now() < deadline) if ((await step()) === 0) await sleep(20);
      await step();
      await close();
      return { seen, pulls, statements: counter.statements, relooks, batch };
    };

    // Devices following the real change hub: one pull (continued while pages are full) per notice.
    const hub = new ChangeHub(here);
    await hub.start();
    type DeviceResult = { notices: number; pulls: number; missed: number; missedRows: string[]; seen: string[] };
    const device = (batch: number, relook = true) => {
      const { db, close } = countingDb(here.url!, 2);
      const seenSet = new Set<string>();
      const seen: string[] = [];
      const notified = new Set<string>();
      let checkpoint: Checkpoint | null = null;
      let busy = false;
      let again = false;
      const result: DeviceResult = { notices: 0, pulls: 0, missed: 0, missedRows: [], seen };
      const run = async () => {
        if (busy) { again = true; return; }
        busy = true;
        try {
          do {
            again = false;
            const owed = [...notified];
            for (;;) {
              const page = relook ? await pullChanges(db, collection, scope, checkpoint, batch) : await pullNoRelook(db, collection, scope, checkpoint, batch);
              result.pulls++;
              for (const d of page.documents) { seen.push(d.id); seenSet.add(d.id); }
              checkpoint = page.checkpoint;
              if (page.documents.length < batch) break;
            }
            for (const lsn of owed) {
              const rows = byTxid.get(lsn);
              if (!rows) continue; // rolled back, or not yet recorded (commit returned later)
              const missing = rows.filter((id) => !seenSet.has(id));
              if (missing.length) { result.missed++; result.missedRows.push(...missing); }
              else notified.delete(lsn);
            }
          } while (again);
        } finally {
          busy = false;
        }
      };
      const unsubscribe = hub.subscribe((change) => {
        if (change.collection !== 'time-entries') return;
        result.notices++;
        notified.add(String(change.lsn));
        void run();
      });
      return {
        result,
        finish: async () => {
          unsubscribe();
          while (busy) await sleep(10);
          await close();
          return result;
        },
      };
    };

    const devices = [device(10), device(100), device(10, false), device(100, false)];
    const pullers = [1, 3, 10, 100].map((b) => puller(b));
    const churners = [
      ...Array.from({ length: ELSEWHERE_CHURNERS }, () => churn(elsewhere, 'elsewhereTx')),
      ...Array.from({ length: HERE_CHURNERS }, () => churn(here, 'hereChurn')),
    ];
    const t0 = Date.now();
    await Promise.all(Array.from({ length: HERE_WRITERS }, (_, w) => writer(w)));
    writing = false;
    await Promise.all(churners);
    const results = await Promise.all(pullers);
    await sleep(500);
    const deviceResults = await Promise.all(devices.map((d) => d.finish()));
    await hub.close();

    // the order every puller must have seen: (txid, id)
    const order = rowsOf<{ id: string; txid: string }>(
      await here.executeSql(`select id::text, txid::text from time_entries where org_id = $1 order by txid, id`, [orgId]),
    ).map((r) => r.id);
    const report = {
      seconds: (Date.now() - t0) / 1000,
      committedRows: committed.size,
      ...stats,
      pullers: results.map((r) => ({ batch: r.batch, seen: r.seen.length, pulls: r.pulls, statements: r.statements, relooks: r.relooks })),
      devices: deviceResults.map((d) => ({ notices: d.notices, pulls: d.pulls, missedAfterNotice: d.missed, missedRows: d.missedRows.length, seen: d.seen.length })),
    };
    writeFileSync(`/tmp/rv/race-${Date.now()}.json`, JSON.stringify(report, null, 2));
    console.log(JSON.stringify(report));
    expect(order.length).toBe(committed.size);
    expect(new Set(order)).toEqual(new Set(committed.keys()));
    for (const r of results) {
      expect(r.seen.length, `batch ${r.batch}`).toBe(committed.size); // none twice, none missing
      expect(r.seen).toEqual(order); // exactly in (txid, id) order
    }
  }, 600_000);
});
