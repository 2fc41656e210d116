import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestDatabase } from '../testing/test-database.ts';
import { addMembership, insertTestOrg, insertTestUser } from '../testing/auth-fixtures.ts';
import { timeEntry } from '../testing/sync-fixtures.ts';
import { writeTimeEntries } from '../time-tracking/time-entries.service.ts';
import type { Database, Tx } from '../db/open-database.ts';
import type { Checkpoint } from '@platform/schema/sync/sync.zod';
import type { Actor, Scope } from './actor.ts';
import { collectionDefinitions } from './collections/definitions.ts';
import { pullChanges } from './pull.ts';

// Guarantee 1 (issue 4): a pull never misses a row whose transaction commits after a later
// position was handed out. Concurrency needs real PostgreSQL (PGlite has one connection).
// Any open transaction that may write to this database delays when a row becomes visible
// (never whether): the readers below wait for delivery, and a skipped row — one that never
// arrives — fails them. Runs in the serial step (scripts/test.ts): it races writers against
// readers on purpose, and other files' load beside it would only slow it.
describe.runIf(process.env.DATABASE_URL)('no skipped change on PostgreSQL', () => {
  const collection = collectionDefinitions['time-entries'];
  let database: Database;
  let scope: Scope;
  let actor: Actor;
  let orgId: string;
  /**
   * One staff member per writer: writes for one person take turns (the overlap rule locks
   * the person, issue 6), and these proofs need transactions of their own to interleave.
   */
  const userIds: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres', { maxConnections: 16 });
    const org = await insertTestOrg(database.db);
    orgId = org.id;
    for (let i = 0; i < 8; i++) {
      const user = await insertTestUser(database.db);
      await addMembership(database.db, user.id, org.id, 'staff');
      userIds.push(user.id);
    }
    scope = { orgId, ownerIds: null, writable: true };
    actor = {
      userId: userIds[0] ?? '',
      view: 'org',
      orgId,
      claims: ['manage-others-time-tracking'],
      familyUserIds: [userIds[0] ?? ''],
    };
  });
  afterAll(() => database.close());

  const write = (tx: Tx, writer: number) => {
    const doc = timeEntry(orgId, userIds[writer] ?? '');
    return writeTimeEntries(tx, actor, [{ next: doc, master: null }]).then((errors) => {
      if (errors.length) throw new Error(errors[0]?.message);
      return doc.id;
    });
  };

  /**
   * Pulls until `expected` rows arrived (or, without `expected`, until nothing new comes back);
   * gives up after a few seconds, so a row that was skipped shows up as missing.
   */
  async function drain(checkpoint: Checkpoint | null, batchSize: number, expected?: number) {
    const seen: string[] = [];
    const deadline = Date.now() + 5000;
    for (;;) {
      const page = await pullChanges(database.db, collection, scope, checkpoint, batchSize);
      seen.push(...page.documents.map((d) => d.id));
      checkpoint = page.checkpoint;
      if (page.documents.length > 0) continue;
      if (expected === undefined || seen.length >= expected || Date.now() > deadline)
        return { seen, checkpoint };
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('does not skip a row whose transaction began first but committed last', async () => {
    const start = await drain(null, 100);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let earlyId = '';
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => (wrote = resolve));
    // Transaction A takes the smaller position, then stays open…
    const slow = database.db.transaction(async (tx) => {
      earlyId = await write(tx, 0);
      wrote();
      await gate;
    });
    await written;
    // …while B, with a larger position, commits first.
    const lateId = await database.db.transaction((tx) => write(tx, 1));

    const whileOpen = await drain(start.checkpoint, 100);
    release();
    await slow;
    const afterCommit = await drain(whileOpen.checkpoint, 100, 2 - whileOpen.seen.length);

    const seen = [...whileOpen.seen, ...afterCommit.seen];
    expect(seen.sort()).toEqual([earlyId, lateId].sort());
  });

  it('delivers every row to every reader while many writers commit out of order', async () => {
    const start = await drain(null, 100);
    const committed: string[] = [];
    let writing = true;

    const writer = async (w: number) => {
      for (let i = 0; i < 25; i++) {
        const ids = await database.db.transaction(async (tx) => {
          const mine: string[] = [];
          const rows = 1 + ((w + i) % 4);
          for (let r = 0; r < rows; r++) {
            mine.push(await write(tx, w));
            // Hold the transaction open for a random moment so commits interleave.
            await tx.execute(sql`select pg_sleep(${Math.random() * 0.008})`);
          }
          return mine;
        });
        committed.push(...ids);
      }
    };

    const reader = async (batchSize: number): Promise<string[]> => {
      const seen: string[] = [];
      let checkpoint = start.checkpoint;
      while (writing) {
        const page = await pullChanges(database.db, collection, scope, checkpoint, batchSize);
        seen.push(...page.documents.map((d) => d.id));
        checkpoint = page.checkpoint;
      }
      const rest = await drain(checkpoint, batchSize, committed.length - seen.length);
      return [...seen, ...rest.seen];
    };

    const readers = [1, 7, 50].map((size) => reader(size));
    await Promise.all(Array.from({ length: 8 }, (_, w) => writer(w)));
    writing = false;
    const results = await Promise.all(readers);

    expect(committed.length).toBeGreaterThan(400);
    for (const seen of results) {
      expect(seen).toHaveLength(committed.length); // none twice: every row was inserted once
      expect(new Set(seen)).toEqual(new Set(committed)); // none missing
    }
  });
});
