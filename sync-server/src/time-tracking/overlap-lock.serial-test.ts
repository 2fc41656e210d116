import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { timeEntries } from '@platform/schema/db';
import { timeEntryOverlapMessage } from '@platform/schema/time-tracking/time-tracking.messages';
import type { Database } from '../db/open-database.ts';
import { addMembership, insertTestOrg, insertTestUser } from '../testing/auth-fixtures.ts';
import { timeEntry } from '../testing/sync-fixtures.ts';
import { createTestDatabase } from '../testing/test-database.ts';
import type { Actor } from '../sync/actor.ts';
import { writeTimeEntries } from './time-entries.service.ts';

// Issue 6: the overlap rule reads a person's other entries, so two writers must not both read
// before either commits. This interleaves them by hand: the first writes and stays open; the
// second must wait for it and then see its entry. Without the per-person lock in
// writeTimeEntries the second finds nothing, writes, and both overlapping entries are stored.
// Needs real PostgreSQL (PGlite has one connection); serial because it holds a transaction open.
describe.runIf(process.env.DATABASE_URL)('the overlap rule under concurrent writers', () => {
  let database: Database;
  let orgId: string;
  let userId: string;
  let actor: Actor;

  beforeAll(async () => {
    database = await createTestDatabase('postgres', { maxConnections: 4 });
    orgId = (await insertTestOrg(database.db)).id;
    userId = (await insertTestUser(database.db)).id;
    await addMembership(database.db, userId, orgId, 'staff');
    actor = {
      userId,
      view: 'org',
      orgId,
      claims: ['manage-own-time-tracking'],
      familyUserIds: [userId],
    };
  });
  afterAll(() => database.close());

  it('makes the second of two overlapping writes wait for the first, then refuses it', async () => {
    const first = timeEntry(orgId, userId, {
      startTime: '2026-11-23T08:00:00.000Z',
      endTime: '2026-11-23T12:00:00.000Z',
    });
    const second = timeEntry(orgId, userId, {
      startTime: '2026-11-23T11:00:00.000Z',
      endTime: '2026-11-23T13:00:00.000Z',
    });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => (wrote = resolve));

    const slow = database.db.transaction(async (tx) => {
      expect(await writeTimeEntries(tx, actor, [{ next: first, master: null }])).toEqual([]);
      wrote();
      await gate;
    });
    await written;
    let secondDone = false;
    const fast = database.db
      .transaction((tx) => writeTimeEntries(tx, actor, [{ next: second, master: null }]))
      .finally(() => (secondDone = true));

    // While the first is open, the second must be waiting on the person's lock.
    await new Promise((r) => setTimeout(r, 300));
    const waitedForTheFirst = !secondDone;
    release();
    await slow;
    const errors = await fast;

    expect(waitedForTheFirst).toBe(true);
    expect(errors).toEqual([{ id: second.id, message: timeEntryOverlapMessage }]);
    const stored = await database.db
      .select({ id: timeEntries.id })
      .from(timeEntries)
      .where(and(eq(timeEntries.orgId, orgId), eq(timeEntries.userId, userId)));
    expect(stored.map((row) => row.id)).toEqual([first.id]);
  });

  it('does not make writers of different people wait for each other', async () => {
    const other = (await insertTestUser(database.db)).id;
    await addMembership(database.db, other, orgId, 'staff');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => (wrote = resolve));
    const slow = database.db.transaction(async (tx) => {
      await writeTimeEntries(tx, actor, [{ next: timeEntry(orgId, userId), master: null }]);
      wrote();
      await gate;
    });
    await written;
    const elsewhere = await database.db.transaction((tx) =>
      writeTimeEntries(tx, actor, [{ next: timeEntry(orgId, other), master: null }]),
    );
    expect(elsewhere).toEqual([]);
    release();
    await slow;
  });
});
