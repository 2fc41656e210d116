import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { timeEntries } from '@platform/schema/db';
import { timeEntryMessages } from '@platform/schema/time-tracking/time-entry.rules';
import { mostPushBodyBytes } from '@platform/schema/sync/push-limits';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import {
  booking,
  insertRosterItem,
  seedSyncOrg,
  timeEntry,
  waitForVisibility,
  type Person,
} from '../testing/sync-fixtures.ts';
import { rosterMessages } from '../crm/roster.service.ts';
import { crmMessages } from '@platform/schema/crm/crm.messages';
import { bookingMessages } from '../bookings/bookings.service.ts';
import { PUSH_BODY_LIMIT } from './routes.ts';
import { insertOccurrence } from '../testing/schedule-fixtures.ts';

describe.each(testDatabaseKinds)('replication endpoints on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;
  let b: Awaited<ReturnType<typeof seedSyncOrg>>;

  const pull = async (who: Person, collection: string, query = '') => {
    await waitForVisibility(t.db);
    return t.app.inject({
      method: 'GET',
      url: `/api/sync/${collection}/pull${query}`,
      headers: who.jar.headers(),
    });
  };
  const push = (who: Person, collection: string, rows: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/api/sync/${collection}/push`,
      headers: who.jar.headers(),
      payload: rows as object,
    });
  const pushNew = (who: Person, collection: string, docs: object[]) =>
    push(
      who,
      collection,
      docs.map((doc) => ({ assumedMasterState: null, newDocumentState: doc })),
    );

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await seedSyncOrg(t.app, t.db);
    b = await seedSyncOrg(t.app, t.db);
  });
  afterAll(() => t.close());

  it('pushes new documents and pulls them back in change order with a checkpoint', async () => {
    const first = timeEntry(a.org.id, a.manager.id);
    const second = timeEntry(a.org.id, a.staff.id, { startTime: '2026-11-23T09:00:00.000Z' });
    expect((await pushNew(a.manager, 'time-entries', [first])).json()).toEqual([]);
    expect((await pushNew(a.manager, 'time-entries', [second])).json()).toEqual([]);

    const all = (await pull(a.manager, 'time-entries')).json();
    expect(all.documents).toEqual([first, second]);
    expect(all.checkpoint).toEqual({ id: second.id, lsn: expect.any(Number) });

    const afterFirst = (await pull(a.manager, 'time-entries', `?batchSize=1`)).json();
    expect(afterFirst.documents).toEqual([first]);
    const rest = (
      await pull(
        a.manager,
        'time-entries',
        `?id=${afterFirst.checkpoint.id}&lsn=${afterFirst.checkpoint.lsn}`,
      )
    ).json();
    expect(rest.documents).toEqual([second]);
    const nothing = (
      await pull(a.manager, 'time-entries', `?id=${all.checkpoint.id}&lsn=${all.checkpoint.lsn}`)
    ).json();
    expect(nothing).toEqual({ documents: [], checkpoint: all.checkpoint });
  });

  it('delivers every row of one transaction, which all share one position', async () => {
    const docs = Array.from({ length: 7 }, () => timeEntry(b.org.id, b.manager.id));
    await pushNew(b.manager, 'time-entries', docs);
    const seen: string[] = [];
    let query = '';
    for (let i = 0; i < 10; i++) {
      const page = (await pull(b.manager, 'time-entries', `?batchSize=2${query}`)).json();
      if (page.documents.length === 0) break;
      seen.push(...page.documents.map((d: { id: string }) => d.id));
      query = `&id=${page.checkpoint.id}&lsn=${page.checkpoint.lsn}`;
    }
    expect(new Set(new Set(docs.map((d) => d.id))).size).toBe(7);
    expect(seen.filter((id) => docs.some((d) => d.id === id)).sort()).toEqual(
      docs.map((d) => d.id).sort(),
    );
  });

  it('answers a stale assumedMasterState with the master and writes nothing', async () => {
    // Running when both devices last saw it.
    const doc = timeEntry(a.org.id, a.manager.id, {
      startTime: '2026-11-20T08:00:00.000Z',
      endTime: null,
    });
    await pushNew(a.manager, 'time-entries', [doc]);
    const deviceOne = {
      ...doc,
      endTime: '2026-11-20T16:00:00.000Z',
      updatedAt: '2026-11-20T16:00:00.000Z',
    };
    expect(
      (
        await push(a.manager, 'time-entries', [
          { assumedMasterState: doc, newDocumentState: deviceOne },
        ])
      ).json(),
    ).toEqual([]);
    const deviceTwo = {
      ...doc,
      endTime: '2026-11-20T17:00:00.000Z',
      updatedAt: '2026-11-20T17:00:00.000Z',
    };
    const conflict = await push(a.manager, 'time-entries', [
      { assumedMasterState: doc, newDocumentState: deviceTwo },
    ]);
    expect(conflict.statusCode).toBe(200);
    expect(conflict.json()).toEqual([deviceOne]);
    const [row] = await t.db.select().from(timeEntries).where(eq(timeEntries.id, doc.id));
    expect(row?.endTime?.toISOString()).toBe('2026-11-20T16:00:00.000Z');
  });

  it('treats a master whose keys come back in another order as equal (jsonb reorders keys)', async () => {
    const doc = timeEntry(a.org.id, a.manager.id, {
      startTime: '2026-11-19T08:00:00.000Z',
      endTime: '2026-11-19T11:00:00.000Z',
      breakIntervals: [
        { startTime: '2026-11-19T10:00:00.000Z', endTime: '2026-11-19T10:15:00.000Z' },
      ],
    });
    expect((await pushNew(a.manager, 'time-entries', [doc])).json()).toEqual([]);
    const reordered = {
      ...doc,
      breakIntervals: [
        { endTime: '2026-11-19T10:15:00.000Z', startTime: '2026-11-19T10:00:00.000Z' },
      ],
    };
    const next = { ...doc, endTime: '2026-11-19T12:00:00.000Z' };
    expect(
      (
        await push(a.manager, 'time-entries', [
          { assumedMasterState: reordered, newDocumentState: next },
        ])
      ).json(),
    ).toEqual([]);
  });

  it('refuses a whole push with 422 when one row breaks a rule, applying none of it', async () => {
    const good = timeEntry(a.org.id, a.manager.id);
    const backwards = timeEntry(a.org.id, a.manager.id, {
      startTime: '2026-11-23T10:00:00.000Z',
      endTime: '2026-11-23T09:00:00.000Z',
    });
    const foreign = timeEntry(b.org.id, b.manager.id);
    const res = await pushNew(a.manager, 'time-entries', [good, backwards, foreign]);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual(
      expect.arrayContaining([
        { id: backwards.id, message: timeEntryMessages.endsBeforeStart },
        { id: foreign.id, message: expect.stringContaining('does not belong') },
      ]),
    );
    expect(await t.db.select().from(timeEntries).where(eq(timeEntries.id, good.id))).toEqual([]);
  });

  it('refuses to overwrite another organisation’s document even when its id is known', async () => {
    const theirs = timeEntry(b.org.id, b.manager.id);
    await pushNew(b.manager, 'time-entries', [theirs]);
    const hijack = { ...theirs, orgId: a.org.id, userId: a.manager.id };
    const res = await push(a.manager, 'time-entries', [
      { assumedMasterState: null, newDocumentState: hijack },
    ]);
    expect(res.statusCode).toBe(422);
    expect(JSON.stringify(res.json())).not.toContain(b.manager.id);
  });

  it('cannot take another organisation’s document by writing its id in upper case', async () => {
    const theirs = timeEntry(b.org.id, b.manager.id);
    await pushNew(b.manager, 'time-entries', [theirs]);
    const hijack = {
      ...theirs,
      id: theirs.id.toUpperCase(),
      orgId: a.org.id,
      userId: a.manager.id,
    };
    const res = await push(a.manager, 'time-entries', [
      { assumedMasterState: null, newDocumentState: hijack },
    ]);
    expect(res.statusCode).toBe(422);
    const [row] = await t.db.select().from(timeEntries).where(eq(timeEntries.id, theirs.id));
    expect(row?.orgId).toBe(b.org.id);
  });

  it('lets a staff member with only their own claim see and write only their own entries', async () => {
    const mine = timeEntry(a.org.id, a.staff.id, { startTime: '2026-11-22T08:00:00.000Z' });
    expect((await pushNew(a.staff, 'time-entries', [mine])).json()).toEqual([]);
    const notMine = await pushNew(a.staff, 'time-entries', [timeEntry(a.org.id, a.manager.id)]);
    expect(notMine.statusCode).toBe(422);
    const docs = (await pull(a.staff, 'time-entries')).json().documents as Array<{
      userId: string;
    }>;
    expect(docs.length).toBeGreaterThan(0);
    expect(docs.every((d) => d.userId === a.staff.id)).toBe(true);
  });

  it('gives customers their own and their children’s bookings only, and never another organisation’s', async () => {
    const own = booking(a.org.id, a.parent.id);
    const childs = booking(a.org.id, a.childId);
    expect((await pushNew(a.parent, 'bookings', [own, childs])).json()).toEqual([]);
    expect(
      (await pushNew(a.other, 'bookings', [booking(a.org.id, a.otherCustomerId)])).json(),
    ).toEqual([]);
    expect((await pushNew(b.parent, 'bookings', [booking(b.org.id, b.parent.id)])).json()).toEqual(
      [],
    );

    const parentSees = (await pull(a.parent, 'bookings'))
      .json()
      .documents.map((d: { id: string }) => d.id);
    expect(parentSees.sort()).toEqual([own.id, childs.id].sort());
    const managerSees = (await pull(a.manager, 'bookings')).json().documents as Array<{
      orgId: string;
    }>;
    expect(managerSees).toHaveLength(3);
    expect(managerSees.every((d) => d.orgId === a.org.id)).toBe(true);

    const forSomeoneElse = await pushNew(a.parent, 'bookings', [
      booking(a.org.id, a.otherCustomerId),
    ]);
    expect(forSomeoneElse.statusCode).toBe(422);
  });

  it('never lets a customer undo attendance recorded by staff', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id);
    const request = booking(a.org.id, a.parent.id, {
      occurrenceId: occurrence.id,
      updatedAt: '2026-11-20T09:00:00.000Z',
    });
    expect((await pushNew(a.parent, 'bookings', [request])).json()).toEqual([]);
    // The server's verdict replicates back: a place.
    const mine = (await pull(a.parent, 'bookings')).json().documents.find(
      (d: { id: string }) => d.id === request.id,
    );
    expect(mine.status).toBe('booked');
    const noShow = { ...mine, status: 'no-show', updatedAt: '2026-11-20T10:00:00.000Z' };
    expect(
      (
        await push(a.manager, 'bookings', [{ assumedMasterState: mine, newDocumentState: noShow }])
      ).json(),
    ).toEqual([]);
    const undo = { ...noShow, status: 'cancelled', updatedAt: '2026-11-20T11:00:00.000Z' };
    const res = await push(a.parent, 'bookings', [
      { assumedMasterState: noShow, newDocumentState: undo },
    ]);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0].message).toBe(bookingMessages.settledByStaff);
  });

  it('refuses text PostgreSQL cannot store with 422, not 500', async () => {
    const res = await pushNew(a.parent, 'bookings', [
      booking(a.org.id, a.parent.id, { occurrenceId: 'yoga\u0000x' }),
    ]);
    expect(res.statusCode).toBe(422);
  });

  it('keeps the roster read-only for customers and refuses what only the CRM may do', async () => {
    const item = await insertRosterItem(t.db, a.org.id, { id: a.parent.id, email: a.parent.email });
    const own = (await pull(a.parent, 'roster')).json().documents;
    expect(own.map((d: { id: string }) => d.id)).toEqual([item.id]);
    const edit = { ...own[0], phone: '+12015550100' };
    const refused = await push(a.parent, 'roster', [
      { assumedMasterState: own[0], newDocumentState: edit },
    ]);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors[0].message).toBe(
      'You can read these documents but not change them.',
    );

    expect(
      (
        await push(a.manager, 'roster', [{ assumedMasterState: own[0], newDocumentState: edit }])
      ).json(),
    ).toEqual([]);
    const rename = { ...edit, athlete: { ...edit.athlete, firstName: 'Other' } };
    const renamed = await push(a.manager, 'roster', [
      { assumedMasterState: edit, newDocumentState: rename },
    ]);
    expect(renamed.json().errors[0].message).toBe(rosterMessages.athleteFixed);

    // Issue 14: a number is stored in E.164 or not at all; tags are case-insensitive.
    const typed = await push(a.manager, 'roster', [
      { assumedMasterState: edit, newDocumentState: { ...edit, phone: '(201) 555-0100' } },
    ]);
    expect(typed.statusCode).toBe(422);
    expect(typed.json().errors[0].message).toBe(crmMessages.invalidPhone);
    const tagged = { ...edit, tags: ['vip', 'VIP', ' Vip'], updatedAt: new Date().toISOString() };
    expect(
      (await push(a.manager, 'roster', [{ assumedMasterState: edit, newDocumentState: tagged }])).json(),
    ).toEqual([]);
    const [stored] = (await pull(a.manager, 'roster')).json().documents;
    expect(stored).toMatchObject({ phone: '+12015550100', tags: ['vip'] });
  });

  it('refuses a tag with a comma in words the front desk form shows (spec §5)', async () => {
    await insertRosterItem(t.db, b.org.id, { id: b.parent.id, email: b.parent.email });
    const [item] = (await pull(b.manager, 'roster')).json().documents;
    const refused = await push(b.manager, 'roster', [
      { assumedMasterState: item, newDocumentState: { ...item, tags: ['vip', 'am,pm'] } },
    ]);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      errors: [{ id: item.id, message: `tags.1: ${crmMessages.tagHasComma}` }],
    });
    expect((await pull(b.manager, 'roster')).json().documents[0].tags).toEqual(item.tags);
  });

  it('answers bad input with 4xx, never 5xx', async () => {
    expect((await pull(a.manager, 'nope')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/sync/roster/pull' })).statusCode).toBe(
      401,
    );
    expect((await pull(a.manager, 'roster', '?lsn=abc&id=x')).statusCode).toBe(400);
    expect((await pull(a.manager, 'roster', '?lsn=5')).statusCode).toBe(400);
    expect((await push(a.manager, 'time-entries', { not: 'an array' })).statusCode).toBe(400);
    expect(
      (await push(a.manager, 'time-entries', [{ newDocumentState: { id: 'x' } }])).statusCode,
    ).toBe(422);
    expect((await pull(a.parent, 'time-entries')).statusCode).toBe(403);
    expect((await pull(a.staff, 'roster')).statusCode).toBe(403);
  });

  it('takes the largest batch the app can make, answers 413 past it, and a stranger before the body', async () => {
    const past = JSON.stringify([{ newDocumentState: { id: 'x'.repeat(PUSH_BODY_LIMIT) } }]);
    const sized = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/sync/customer-notes/push',
        headers: { ...headers, 'content-type': 'application/json' },
        payload: past,
      });
    expect((await sized(a.manager.jar.headers())).statusCode).toBe(413);
    // Without a session the body is not read at all: the answer is 401, not 413.
    expect((await sized({})).statusCode).toBe(401);
    expect(PUSH_BODY_LIMIT).toBe(mostPushBodyBytes('customer-notes'));
  });
});
