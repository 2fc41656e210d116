import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerProfileSchema } from '@platform/schema/crm/crm.zod';
import { timeOutOfRangeMessage } from '@platform/schema/sync/iso-time';
import { createTestApp } from '../testing/test-app.ts';
import { unreadableStoredDocumentMessage } from './read-document.ts';
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
  let rosterId: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await seedSyncOrg(t.app, t.db);
    ({ id: rosterId } = await insertRosterItem(t.db, a.org.id, {
      id: a.otherCustomerId,
      email: a.other.email,
    }));
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

  it('skips a stored row that cannot be a document, counts it, and the feed goes on past it', async () => {
    const before = timeEntry(a.org.id, a.staff.id);
    expect((await pushNewAs(t, a.staff, 'time-entries', [before])).statusCode).toBe(200);
    // Written around the schema (an older server, a hand edit): year 1, and no instant at all.
    const poisoned = [randomUUID(), randomUUID()];
    const insertRaw = (id: string, startTime: string, updatedAt: string) =>
      t.db.execute(
        sql`insert into time_entries (id, org_id, user_id, start_time, updated_at)
            values (${id}, ${a.org.id}, ${a.staff.id}, ${startTime}::timestamptz, ${updatedAt}::timestamptz)`,
      );
    await insertRaw(poisoned[0] ?? '', '2026-11-20T09:00:00Z', '0001-01-01T00:00:00Z');
    await insertRaw(poisoned[1] ?? '', 'infinity', '2026-11-20T09:00:00Z');
    const after = timeEntry(a.org.id, a.staff.id);
    expect((await pushNewAs(t, a.staff, 'time-entries', [after])).statusCode).toBe(200);

    const all = await pullAs(t, a.staff, 'time-entries');
    expect(all.statusCode).toBe(200);
    expect(all.json().documents).toEqual([before, after]);

    // Page by page, a page is filled past the skipped rows: a device ends its pull at the
    // first page shorter than it asked for.
    const first = (await pullAs(t, a.staff, 'time-entries', '?batchSize=1')).json();
    expect(first.documents).toEqual([before]);
    const { id, lsn } = first.checkpoint;
    const second = (
      await pullAs(t, a.staff, 'time-entries', `?batchSize=1&id=${id}&lsn=${lsn}`)
    ).json();
    expect(second.documents).toEqual([after]);
    expect(second.checkpoint).toEqual(all.json().checkpoint);

    // Counted each time a pull passes them (twice by each of the two pulls above)…
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toContain('sync_unreadable_rows_total{collection="time-entries"} 4');
    // …and a push naming one is refused, not failed.
    const overwrite = await pushAs(t, a.staff, 'time-entries', [
      { assumedMasterState: null, newDocumentState: { ...after, id: poisoned[1] } },
    ]);
    expect(overwrite.statusCode).toBe(422);
    expect(overwrite.json()).toEqual({
      errors: [{ id: poisoned[1], message: unreadableStoredDocumentMessage }],
    });
  });

  it('still shows a note stored before the range existed on the customer’s profile', async () => {
    const id = randomUUID();
    await t.db.execute(
      sql`insert into customer_notes (id, org_id, user_id, author_id, author_name, body, created_at, updated_at)
          values (${id}, ${a.org.id}, ${a.otherCustomerId}, ${a.manager.id}, 'Test User',
                  'Pushed in 2026 from a device whose clock said 1850.', '1850-06-01T00:00:00Z', now())`,
    );
    const profile = await t.app.inject({
      method: 'GET',
      url: `/api/crm/customers/${rosterId}`,
      headers: a.manager.jar.headers(),
    });
    expect(profile.statusCode).toBe(200);
    // What the browser does with the answer: one old note must not break the whole profile.
    const parsed = customerProfileSchema.safeParse(profile.json());
    expect(parsed.error?.issues).toBeUndefined();
    expect(parsed.data?.notes.find((note) => note.id === id)?.createdAt).toBe(
      '1850-06-01T00:00:00.000Z',
    );
  });
});
