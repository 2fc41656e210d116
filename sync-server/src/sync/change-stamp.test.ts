import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { rosterItems, timeEntries } from '@platform/schema/db';
import { mergeRosterItems } from '@platform/schema/roster/roster-item.conflict';
import { changeStampMessages } from '@platform/schema/sync/change-stamp.rules';
import { mergeTimeEntries } from '@platform/schema/time-tracking/time-entry.conflict';
import { rosterItemToDoc } from '../crm/roster.repository.ts';
import { timeEntryToDoc } from '../time-tracking/time-entries.repository.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import {
  insertRosterItem,
  pushAs,
  seedSyncOrg,
  timeEntry,
  type Person,
} from '../testing/sync-fixtures.ts';

// Issue 12: `updatedAt` is the time a change was made, by the device's clock, and "the later
// change wins" compares it. A device whose clock says 2099 must not win every decision after
// its push: the server refuses a change stamped more than five minutes ahead of its own clock.
describe.each(testDatabaseKinds)('change stamps ahead of the server on %s', (kind) => {
  const year2099 = '2099-01-01T00:00:00.000Z';
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await seedSyncOrg(t.app, t.db);
  });
  afterAll(() => t.close());

  const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

  /**
   * What a device does with a change: push it against the master it last saw; on a conflict,
   * resolve with the collection's shared rule and push the result against the master returned.
   */
  async function sync<Doc>(
    who: Person,
    collection: string,
    assumed: Doc,
    local: Doc,
    merge: (master: Doc, local: Doc) => Doc,
  ) {
    const first = await pushAs(t, who, collection, [
      { assumedMasterState: assumed, newDocumentState: local },
    ]);
    expect(first.statusCode).toBe(200);
    const [master] = first.json<Doc[]>();
    if (master === undefined) return;
    const resolved = merge(master, local);
    if (isDeepStrictEqual(resolved, master)) return;
    const second = await pushAs(t, who, collection, [
      { assumedMasterState: master, newDocumentState: resolved },
    ]);
    expect(second.json()).toEqual([]);
  }

  const storedEntry = async (id: string) => {
    const [row] = await t.db.select().from(timeEntries).where(eq(timeEntries.id, id));
    if (!row) throw new Error('time entry missing');
    return timeEntryToDoc(row);
  };
  const newEntry = async () => {
    const entry = timeEntry(a.org.id, a.staff.id);
    const pushed = await pushAs(t, a.staff, 'time-entries', [
      { assumedMasterState: null, newDocumentState: entry },
    ]);
    expect(pushed.json()).toEqual([]);
    return entry;
  };

  it('refuses a change stamped 2099, and a real later change still wins', async () => {
    const customer = await insertRosterItem(t.db, a.org.id, { id: a.otherCustomerId, email: null });
    const [row] = await t.db.select().from(rosterItems).where(eq(rosterItems.id, customer.id));
    const master = rosterItemToDoc(row!);

    // The desk whose clock says 2099.
    const future = await pushAs(t, a.manager, 'roster', [
      {
        assumedMasterState: master,
        newDocumentState: { ...master, phone: '+12015550101', updatedAt: year2099 },
      },
    ]);
    expect(future.statusCode).toBe(422);
    expect(future.json()).toEqual({
      errors: [{ id: master.id, message: changeStampMessages.aheadOfServer }],
    });

    // Another desk changed the phone a minute ago, against the same master.
    const real = { ...master, phone: '+12015550102', updatedAt: minutesFromNow(-1) };
    await sync(a.manager, 'roster', master, real, (m, l) => mergeRosterItems(m, l, master));
    const [after] = await t.db.select().from(rosterItems).where(eq(rosterItems.id, master.id));
    expect(rosterItemToDoc(after!)).toEqual(real);
  });

  it('accepts a stamp a little ahead (clocks drift), up to five minutes', async () => {
    const entry = await newEntry();
    const drifted = { ...entry, updatedAt: minutesFromNow(4) };
    const pushed = await pushAs(t, a.staff, 'time-entries', [
      { assumedMasterState: entry, newDocumentState: drifted },
    ]);
    expect(pushed.json()).toEqual([]);
    const ahead = await pushAs(t, a.staff, 'time-entries', [
      {
        assumedMasterState: drifted,
        newDocumentState: { ...drifted, updatedAt: minutesFromNow(6) },
      },
    ]);
    expect(ahead.statusCode).toBe(422);
    expect(await storedEntry(entry.id)).toEqual(drifted);
  });

  it('does not make a document undeletable by an edit stamped far ahead', async () => {
    const entry = await newEntry();
    const edited = { ...entry, breakIntervals: [], updatedAt: year2099 };
    const future = await pushAs(t, a.staff, 'time-entries', [
      { assumedMasterState: entry, newDocumentState: edited },
    ]);
    expect(future.statusCode).toBe(422);

    // The manager deletes it now, from a device that saw it as first pushed.
    const deleted = { ...entry, _deleted: true, updatedAt: minutesFromNow(0) };
    await sync(a.manager, 'time-entries', entry, deleted, mergeTimeEntries);
    expect((await storedEntry(entry.id))._deleted).toBe(true);

    // Nor can an edit stamped far ahead bring it back.
    const revived = await pushAs(t, a.staff, 'time-entries', [
      { assumedMasterState: deleted, newDocumentState: { ...entry, updatedAt: year2099 } },
    ]);
    expect(revived.statusCode).toBe(422);
    expect((await storedEntry(entry.id))._deleted).toBe(true);
  });

  it('does not let a delete stamped far ahead beat a later real change', async () => {
    const entry = await newEntry();
    const future = await pushAs(t, a.staff, 'time-entries', [
      {
        assumedMasterState: entry,
        newDocumentState: { ...entry, _deleted: true, updatedAt: year2099 },
      },
    ]);
    expect(future.statusCode).toBe(422);

    // The manager corrects the clock-out now, from a device that saw it as first pushed.
    const corrected = {
      ...entry,
      endTime: new Date(Date.parse(entry.endTime ?? '') + 60_000).toISOString(),
      updatedAt: minutesFromNow(0),
    };
    await sync(a.manager, 'time-entries', entry, corrected, mergeTimeEntries);
    expect(await storedEntry(entry.id)).toEqual(corrected);
  });
});
