import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timeOutOfRangeMessage } from '@platform/schema/sync/iso-time';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import {
  booking,
  insertRosterItem,
  pullAs,
  pushAs,
  pushNewAs,
  seedSyncOrg,
  timeEntry,
} from '../testing/sync-fixtures.ts';

/**
 * Issue 12: a document whose times PostgreSQL stores but Node cannot read back (years 0–99),
 * or cannot store at all (year 0), used to be accepted (200) or fail (500) — and then stop
 * every pull that reached it. Such times are refused at the door, with one message.
 */
describe.each(testDatabaseKinds)('poison documents on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await seedSyncOrg(t.app, t.db);
    await insertRosterItem(t.db, a.org.id, { id: a.otherCustomerId, email: a.other.email });
  });
  afterAll(() => t.close());

  const refusal = (id: string, field: string) => ({
    errors: [{ id, message: `${field}: ${timeOutOfRangeMessage}` }],
  });

  it('refuses a time entry in year 0025, or year 0000, with 422 and the range message', async () => {
    // A copy of an entry moved to 0025 (it used to read back as 2025 and overlap).
    const year25 = timeEntry(a.org.id, a.manager.id, {
      startTime: '0025-11-20T09:00:00.000Z',
      endTime: null,
      updatedAt: '2026-11-20T09:00:00.000Z',
    });
    const response = await pushNewAs(t, a.manager, 'time-entries', [year25]);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual(refusal(year25.id, 'startTime'));

    const year0 = { ...year25, id: randomUUID(), startTime: '0000-01-01T00:00:00.000Z' };
    const zero = await pushNewAs(t, a.manager, 'time-entries', [year0]);
    expect(zero.statusCode).toBe(422);
    expect(zero.json()).toEqual(refusal(year0.id, 'startTime'));

    const running = timeEntry(a.org.id, a.manager.id, { endTime: null });
    const breakIn0 = {
      ...running,
      breakIntervals: [{ startTime: '0000-01-01T00:00:00.000Z', endTime: null }],
    };
    const inBreak = await pushNewAs(t, a.manager, 'time-entries', [breakIn0]);
    expect(inBreak.json()).toEqual(refusal(breakIn0.id, 'breakIntervals.0.startTime'));
  });

  it('refuses out-of-range times in bookings, notes and roster items', async () => {
    const early = booking(a.org.id, a.childId, { updatedAt: '0001-01-01T00:00:00.000Z' });
    const bookingPush = await pushNewAs(t, a.parent, 'bookings', [early]);
    expect(bookingPush.statusCode).toBe(422);
    expect(bookingPush.json()).toEqual(refusal(early.id, 'updatedAt'));

    const note = {
      id: randomUUID(),
      orgId: a.org.id,
      userId: a.otherCustomerId,
      body: 'Written with a broken clock.',
      authorId: a.manager.id,
      authorName: 'Morgan Manager',
      createdAt: '1850-06-01T00:00:00.000Z',
      updatedAt: '2026-11-20T09:00:00.000Z',
      _deleted: false,
    };
    const notePush = await pushNewAs(t, a.manager, 'customer-notes', [note]);
    expect(notePush.statusCode).toBe(422);
    expect(notePush.json()).toEqual(refusal(note.id, 'createdAt'));

    const [item] = (await pullAs(t, a.manager, 'roster')).json().documents;
    const retagged = { ...item, tags: ['vip'], updatedAt: '2200-01-01T00:00:00.000Z' };
    const rosterPush = await pushAs(t, a.manager, 'roster', [
      { assumedMasterState: item, newDocumentState: retagged },
    ]);
    expect(rosterPush.statusCode).toBe(422);
    expect(rosterPush.json()).toEqual(refusal(item.id, 'updatedAt'));
  });

  it('refuses the same range in POST /api/time-tracking, with the same words', async () => {
    const post = (payload: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/time-tracking',
        headers: a.manager.jar.headers(),
        payload,
      });
    const created = await post({
      action: 'create-time-entry',
      orgId: a.org.id,
      timeEntry: { startTime: '0025-11-20T09:00:00.000Z', endTime: '0025-11-20T17:00:00.000Z' },
    });
    expect(created.statusCode).toBe(400);
    expect(created.json().errors).toEqual([
      { field: 'timeEntry.startTime', message: timeOutOfRangeMessage },
      { field: 'timeEntry.endTime', message: timeOutOfRangeMessage },
    ]);

    const entry = timeEntry(a.org.id, a.manager.id);
    expect((await pushNewAs(t, a.manager, 'time-entries', [entry])).statusCode).toBe(200);
    const updated = await post({
      action: 'update-time-entry',
      orgId: a.org.id,
      entryId: entry.id,
      timeEntry: { endTime: '0000-01-01T00:00:00.000Z' },
    });
    expect(updated.statusCode).toBe(400);
    expect(updated.json().errors).toEqual([
      { field: 'timeEntry.endTime', message: timeOutOfRangeMessage },
    ]);
  });
});
