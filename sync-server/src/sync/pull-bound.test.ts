import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rowsOf, type Database, type Db, type Tx } from '../db/open-database.ts';
import { createTestDatabase, testDatabaseKinds } from '../testing/test-database.ts';
import { insertTestOrg, insertTestUser } from '../testing/auth-fixtures.ts';
import { insertRosterItem } from '../testing/sync-fixtures.ts';
import { collectionDefinitions } from './collections/definitions.ts';
import { pullChanges } from './pull.ts';
import { pullBound } from './pull-bound.ts';
import { ChangeHub, notifyChange, type ChangeNotification } from './change-feed.ts';

/** A transaction that has taken a transaction id (as any writer has) and keeps it until let go. */
async function holdWriter(db: Db): Promise<{ xid: bigint; release: () => Promise<void> }> {
  let letGo = () => {};
  const released = new Promise<void>((resolve) => (letGo = resolve));
  let took = (_xid: bigint) => {};
  const taken = new Promise<bigint>((resolve) => (took = resolve));
  const holder = db.transaction(async (tx) => {
    const [row] = rowsOf<{ xid: string }>(
      await tx.execute(sql`select pg_current_xact_id()::text as xid`),
    );
    took(BigInt(row?.xid ?? '0'));
    await released;
  });
  const xid = await Promise.race([taken, holder.then(() => 0n)]);
  return {
    xid,
    release: async () => {
      letGo();
      await holder;
    },
  };
}

const position = async (db: Db | Tx, expression: ReturnType<typeof sql>) => {
  const [row] = rowsOf<{ v: string }>(await db.execute(sql`select ${expression}::text as v`));
  return BigInt(row?.v ?? '-1');
};

/**
 * The bound, taken until it is `expected` (never above it): a transaction of another test file
 * that was running at the snapshot and ended before the bound looked at who is running is kept
 * in the bound — it cannot be known to have been elsewhere — which is the safe answer and
 * lowers the bound for that one look. The next look, with it gone from the snapshot, is exact.
 */
async function boundSettlesAt(db: Db, expected: bigint): Promise<bigint> {
  let seen = -1n;
  for (let look = 0; look < 50; look++) {
    seen = await position(db, pullBound());
    expect(seen).toBeLessThanOrEqual(expected);
    if (seen === expected) return seen;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return seen;
}

/** The bound, taken until it has passed `xid` (the same race as above can hold it back one look). */
async function boundPasses(db: Db, xid: bigint): Promise<bigint> {
  let seen = -1n;
  for (let look = 0; look < 50 && seen <= xid; look++) {
    if (look > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    seen = await position(db, pullBound());
  }
  return seen;
}

// Decision 0076: a pull reads below the oldest running transaction that may write to *this*
// database. Transaction ids are cluster-wide, so before it a transaction held open in any
// database on the cluster held every feed until it ended.
describe.runIf(process.env.DATABASE_URL)('the pull bound on PostgreSQL', () => {
  let here: Database;
  let elsewhere: Database;

  beforeAll(async () => {
    [here, elsewhere] = await Promise.all([
      createTestDatabase('postgres'),
      createTestDatabase('postgres'),
    ]);
  });
  afterAll(async () => {
    await Promise.all([here?.close(), elsewhere?.close()]);
  });

  it('passes a transaction writing in another database, and pulls the rows written here after it began', async () => {
    const other = await holdWriter(elsewhere.db);
    try {
      const org = await insertTestOrg(here.db);
      const user = await insertTestUser(here.db);
      const item = await insertRosterItem(here.db, org.id, user);
      const page = await pullChanges(
        here.db,
        collectionDefinitions.roster,
        { orgId: org.id, ownerIds: null, writable: true },
        null,
        10,
      );
      expect(page.documents.map((d) => d.id)).toEqual([item.id]);
      expect(await boundPasses(here.db, other.xid)).toBeGreaterThan(other.xid);
    } finally {
      await other.release();
    }
  });

  it('is held by a transaction writing in this database until it ends', async () => {
    const writer = await holdWriter(here.db);
    try {
      expect(await position(here.db, pullBound())).toBeLessThanOrEqual(writer.xid);
    } finally {
      await writer.release();
    }
    expect(await boundPasses(here.db, writer.xid)).toBeGreaterThan(writer.xid);
  });

  // The race a bound made from "this database's writers" would lose: a transaction of this
  // database still running when the pull's snapshot was taken, finished (and gone from every
  // view of the running backends) by the time the bound looks at who is running. Its rows are
  // not in that snapshot, so the bound must stay at or below it, or they would be skipped.
  // And a transaction of another database that finished before the look: nothing is known of
  // it then, so it is kept in too.
  it.each([
    ['this database', () => here],
    ['another database (nothing is known of it by then)', () => elsewhere],
  ])(
    'stays below a transaction of %s that finished between the snapshot and the look',
    async (_, where) => {
      const writer = await holdWriter(where().db);
      await finishOne(here.db);
      const snapshot = await snapshotNow(here.db);
      expect(runningIn(snapshot)).toContain(writer.xid);
      await writer.release();
      expect(await position(here.db, pullBound(sql`${snapshot}::pg_snapshot`))).toBeLessThanOrEqual(
        writer.xid,
      );
    },
  );

  it('is the snapshot’s xmax when nothing is running, and the oldest of this database’s when both are', async () => {
    const mine = await holdWriter(here.db);
    const theirs = await holdWriter(elsewhere.db);
    const later = await holdWriter(here.db);
    try {
      await finishOne(here.db);
      expect(runningIn(await snapshotNow(here.db))).toEqual(
        expect.arrayContaining([mine.xid, theirs.xid, later.xid]),
      );
      // (Other test files' transactions run in other databases meanwhile: passed over too.)
      expect(await boundSettlesAt(here.db, mine.xid)).toBe(mine.xid);
      await mine.release();
      // The bound never passes xmax: a transaction that commits here now moves it past
      // `theirs` and `later`.
      await finishOne(here.db);
      // Taken now, `mine` is over: the other database's transaction (older than `later`) is
      // passed, and `later` holds the bound.
      expect(theirs.xid).toBeLessThan(later.xid);
      expect(await boundSettlesAt(here.db, later.xid)).toBe(later.xid);
    } finally {
      await Promise.all([mine.release(), theirs.release(), later.release()]);
    }
    expect(await position(here.db, pullBound(sql`'500:500:'::pg_snapshot`))).toBe(500n);
  });

  it('answers the cluster-wide bound, not an error, where this role may not see the running backends', async () => {
    const role = `pull_bound_${Date.now().toString(36)}`;
    await here.db.execute(sql.raw(`create role ${role}`));
    await here.db.execute(sql.raw('revoke select on pg_catalog.pg_stat_activity from public'));
    const other = await holdWriter(elsewhere.db);
    try {
      await finishOne(here.db);
      const bound = await here.db.transaction(async (tx) => {
        await tx.execute(sql.raw(`set local role ${role}`));
        return position(tx, pullBound());
      });
      expect(bound).toBeLessThanOrEqual(other.xid);
    } finally {
      await other.release();
      await here.db.execute(sql.raw('grant select on pg_catalog.pg_stat_activity to public'));
      await here.db.execute(sql.raw(`drop role ${role}`));
    }
  });

  it('passes on a change notice while a transaction in another database stays open', async () => {
    const hub = new ChangeHub(here);
    await hub.start();
    const heard: ChangeNotification[] = [];
    hub.subscribe((change) => heard.push(change));
    const other = await holdWriter(elsewhere.db);
    try {
      const org = await insertTestOrg(here.db);
      await here.db.transaction((tx) =>
        notifyChange(tx, { collection: 'roster', orgId: org.id, ownerIds: [] }),
      );
      const deadline = Date.now() + 5_000;
      while (heard.length === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect(heard.map((change) => change.orgId)).toEqual([org.id]);
    } finally {
      await other.release();
      await hub.close();
    }
  });
});

// Decision 0076's one-pull dip: a transaction running at a pull's snapshot that ends before the
// bound looks at who is running is kept in the bound (nothing is known of it by then), so rows
// committed after it began are left out of that pull — and the device, which pulled because of
// their change notice, would wait for the next one. The pull looks once more instead. Here the
// bound's function is made to answer such a transaction for one look (the race itself lasts
// microseconds inside one statement), in a database of this test's own.
describe.runIf(process.env.DATABASE_URL)('a pull whose bound was held by a transaction', () => {
  let database: Database;
  let db: Db;
  const roster = collectionDefinitions.roster;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    db = database.db;
    // The function pulls call counts its looks (a sequence: not rolled back, and callable from
    // a STABLE function, which the planner treats as it treats the real one) and answers a
    // given transaction id at a given look — else the snapshot's xmax, not the real bound: other
    // test files' transactions ending inside a statement would give the real one dips of its
    // own (the very case under test), and a third look a loaded run does not ask for.
    await db.execute(
      sql.raw(`
      create sequence bound_looks;
      create table bound_answers (at_look bigint primary key, xid xid8 not null);
      create or replace function sync_pull_bound(snapshot pg_snapshot) returns xid8
      language plpgsql stable as $$
      declare
        look bigint := nextval('bound_looks');
        answer xid8;
      begin
        select xid into answer from bound_answers where at_look = look;
        return coalesce(answer, pg_snapshot_xmax(snapshot));
      end
      $$;`),
    );
  });
  afterAll(() => database?.close());

  /** How many times the bound was looked at since the last call. */
  let counted = 0n;
  const looks = async () => {
    const [row] = rowsOf<{ n: string }>(
      await db.execute(sql`select (last_value - (not is_called)::int)::text as n from bound_looks`),
    );
    const total = BigInt(row?.n ?? '0');
    const since = Number(total - counted);
    counted = total;
    return since;
  };

  async function orgWithOneItem() {
    const org = await insertTestOrg(db);
    const user = await insertTestUser(db);
    const first = await insertRosterItem(db, org.id, user);
    const scope = { orgId: org.id, ownerIds: null, writable: true };
    const start = await pullChanges(db, roster, scope, null, 10);
    expect(start.documents.map((d) => d.id)).toEqual([first.id]);
    await looks();
    // Another item comes from someone else (one roster item per person).
    const another = () =>
      insertTestUser(db).then((someone) => insertRosterItem(db, org.id, someone));
    return { another, scope, checkpoint: start.checkpoint };
  }

  /**
   * A transaction that ends, an item written after it began, and the next look at the bound
   * answering that transaction — as a look does when it was running at the pull's snapshot and
   * gone by the time the look asked. Answers the item.
   */
  async function afterAnEndedTransaction(another: () => ReturnType<typeof insertRosterItem>) {
    const writer = await holdWriter(db);
    await writer.release();
    const item = await another();
    await answerNextLook(writer.xid);
    return item;
  }

  /** The next look at the bound answers `xid`. */
  async function answerNextLook(xid: bigint) {
    await looks();
    await db.execute(
      sql`insert into bound_answers values (${String(counted + 1n)}, ${String(xid)}::xid8)`,
    );
  }

  it('looks once more when that transaction had ended, and hands out the rows after it', async () => {
    const { another, scope, checkpoint } = await orgWithOneItem();
    const second = await afterAnEndedTransaction(another);
    const page = await pullChanges(db, roster, scope, checkpoint, 10);
    expect(page.documents.map((d) => d.id)).toEqual([second.id]);
    expect(await looks()).toBe(2);
  });

  it('does not look again while that transaction is still running: its commit sends the notice', async () => {
    const { another, scope, checkpoint } = await orgWithOneItem();
    const writer = await holdWriter(db);
    let second: Awaited<ReturnType<typeof insertRosterItem>>;
    try {
      second = await another();
      // The bound is `writer`, still running, as the real function would answer.
      await answerNextLook(writer.xid);
      const page = await pullChanges(db, roster, scope, checkpoint, 10);
      expect(page.documents).toEqual([]);
      expect(page.checkpoint).toEqual(checkpoint);
      expect(await looks()).toBe(1);
    } finally {
      await writer.release();
    }
    const after = await pullChanges(db, roster, scope, checkpoint, 10);
    expect(after.documents.map((d) => d.id)).toEqual([second.id]);
  });

  // A hardened server may take EXECUTE on pg_xact_status from PUBLIC: the pull goes on without
  // a second look instead of failing (named in the pull's statement, the function's permission
  // was checked as the statement started — every pull refused, even with nothing running).
  it('pulls without a second look, not an error, where this role may not call pg_xact_status', async () => {
    const { another, scope, checkpoint } = await orgWithOneItem();
    const role = `pull_status_${Date.now().toString(36)}`;
    await db.execute(sql.raw(`create role ${role}`));
    await db.execute(
      sql.raw(`grant select on roster_items, bound_answers to ${role};
        grant usage on sequence bound_looks to ${role};
        revoke execute on function pg_catalog.pg_xact_status(xid8) from public;`),
    );
    try {
      const second = await afterAnEndedTransaction(another);
      const page = await db.transaction(async (tx) => {
        await tx.execute(sql.raw(`set local role ${role}`));
        return pullChanges(tx as unknown as Db, roster, scope, checkpoint, 10);
      });
      // The bound's one look answered `writer`: its rows wait, as before 0076's second look.
      expect(page.documents).toEqual([]);
      expect(await looks()).toBe(1);
      const after = await pullChanges(db, roster, scope, checkpoint, 10);
      expect(after.documents.map((d) => d.id)).toEqual([second.id]);
    } finally {
      await db.execute(
        sql.raw(`grant execute on function pg_catalog.pg_xact_status(xid8) to public;
          drop owned by ${role}; drop role ${role};`),
      );
    }
  });

  // One look a statement: folded into the page, the bound's subquery would be looked at where
  // the page reads it and again where the pull learns of it — looks that could disagree.
  it('looks once when nothing held it', async () => {
    const { scope, checkpoint } = await orgWithOneItem();
    expect((await pullChanges(db, roster, scope, checkpoint, 10)).documents).toEqual([]);
    expect(await looks()).toBe(1);
  });
});

/**
 * A transaction that takes an id and commits. A snapshot lists as running only the ids below
 * its xmax — one past the newest finished transaction — so a transaction is "running" in a
 * snapshot only once a later one has finished.
 */
async function finishOne(db: Db): Promise<void> {
  await position(db, sql`pg_current_xact_id()`);
}

/** The ids a snapshot (`xmin:xmax:xip,…`) lists as running. */
const runningIn = (snapshot: string) =>
  (snapshot.split(':')[2] ?? '').split(',').filter(Boolean).map(BigInt);

async function snapshotNow(db: Db): Promise<string> {
  const [row] = rowsOf<{ s: string }>(
    await db.execute(sql`select pg_current_snapshot()::text as s`),
  );
  return row?.s ?? '';
}

// The embedded database (one session): the same statement answers, and with nothing else
// running the bound is the snapshot's xmax.
describe.each(testDatabaseKinds.filter((kind) => kind === 'pglite'))(
  'the pull bound on %s',
  (kind) => {
    let database: Database;
    beforeAll(async () => {
      database = await createTestDatabase(kind);
    });
    afterAll(() => database.close());

    it('is the snapshot’s xmax', async () => {
      const xmax = await position(database.db, sql`pg_snapshot_xmax(pg_current_snapshot())`);
      expect(await position(database.db, pullBound())).toBe(xmax);
    });
  },
);
