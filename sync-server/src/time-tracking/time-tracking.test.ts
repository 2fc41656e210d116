import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { timeEntries } from '@platform/schema/db';
import { clockMessages } from '@platform/schema/time-tracking/time-clock.rules';
import { timeEntryMessages } from '@platform/schema/time-tracking/time-entry.rules';
import { addMembership, insertTestUser, logInAs } from '../testing/auth-fixtures.ts';
import { changeOf, openSse } from '../testing/sse-client.ts';
import { createTestApp, listenOnLoopback } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import {
  seedSyncOrg,
  timeEntry,
  waitForVisibility,
  type Person,
} from '../testing/sync-fixtures.ts';
import { timeEntryServiceMessages } from './time-entries.service.ts';
import { timeTrackingMessages } from './time-tracking.service.ts';

// A past day: a clock action may not lie ahead of the server’s clock.
const t0 = (hhmm: string) => `2026-11-02T${hhmm}:00.000Z`;
type Entry = {
  id: string;
  userId: string;
  startTime: string;
  endTime: string | null;
  breakIntervals: unknown[];
};

describe.each(testDatabaseKinds)('POST /api/time-tracking on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;
  let b: Awaited<ReturnType<typeof seedSyncOrg>>;
  let base: string;

  const call = (who: Person | null, body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/time-tracking',
      headers: who?.jar.headers() ?? {},
      payload: body,
    });
  /** A fresh staff member of organisation a, so tests never share a clock. */
  const newStaff = async (claims: string[] = ['manage-own-time-tracking']): Promise<Person> => {
    const user = await insertTestUser(t.db);
    await addMembership(t.db, user.id, a.org.id, 'staff', claims);
    const { jar } = await logInAs(t.app, user.email ?? '', {
      profileType: 'use-org',
      profileOrgId: a.org.id,
    });
    return { id: user.id, email: user.email ?? '', jar };
  };
  const rowsOf = (userId: string) =>
    t.db.select().from(timeEntries).where(eq(timeEntries.userId, userId));

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await seedSyncOrg(t.app, t.db);
    b = await seedSyncOrg(t.app, t.db);
    base = await listenOnLoopback(t.app);
  });
  afterAll(() => t.close());

  describe('clock actions (spec §4)', () => {
    it('walks none → active → on_break → active → completed, answering the state after each move', async () => {
      const me = await newStaff();
      const act = (action: string, at: string) => call(me, { action, orgId: a.org.id, at });
      expect((await call(me, { action: 'get-current-status', orgId: a.org.id })).json()).toEqual({
        status: 'none',
        activeEntry: null,
      });

      const clockIn = await act('clock-in', t0('08:02'));
      expect(clockIn.statusCode).toBe(200);
      const id = clockIn.json().activeEntry.id as string;
      expect(clockIn.json()).toEqual({
        status: 'active',
        activeEntry: { id, startTime: t0('08:02'), breakIntervals: [] },
      });
      expect((await act('start-break', t0('10:00'))).json()).toEqual({
        status: 'on_break',
        activeEntry: {
          id,
          startTime: t0('08:02'),
          breakIntervals: [{ startTime: t0('10:00'), endTime: null }],
        },
      });
      expect((await act('end-break', t0('10:15'))).json().activeEntry.breakIntervals).toEqual([
        { startTime: t0('10:00'), endTime: t0('10:15') },
      ]);
      expect((await act('clock-out', t0('16:00'))).json()).toEqual({
        status: 'completed',
        activeEntry: null,
      });
      expect(
        (await call(me, { action: 'get-current-status', orgId: a.org.id })).json().status,
      ).toBe('completed');

      const { entries } = (await call(me, { action: 'get-time-entries', orgId: a.org.id })).json();
      expect(entries).toEqual([
        {
          id,
          orgId: a.org.id,
          userId: me.id,
          startTime: t0('08:02'),
          endTime: t0('16:00'),
          breakIntervals: [{ startTime: t0('10:00'), endTime: t0('10:15') }],
          updatedAt: t0('16:00'),
        },
      ]);
    });

    it('stores an offline time as given (08:02 stays 08:02) and uses the server’s time without one', async () => {
      const me = await newStaff();
      await call(me, { action: 'clock-in', orgId: a.org.id, at: t0('08:02') });
      const [row] = await rowsOf(me.id);
      expect(row?.startTime.toISOString()).toBe(t0('08:02'));
      expect(row?.updatedAt.toISOString()).toBe(t0('08:02'));

      const before = Date.now();
      const out = await call(me, { action: 'clock-out', orgId: a.org.id });
      expect(out.statusCode).toBe(200);
      const [closed] = await rowsOf(me.id);
      expect(closed?.endTime?.getTime()).toBeGreaterThanOrEqual(before - 1);
      expect(closed?.endTime?.getTime()).toBeLessThanOrEqual(Date.now());
    });

    it('refuses a time more than five minutes ahead, and a time that is not ISO UTC with milliseconds', async () => {
      const me = await newStaff();
      const ahead = await call(me, {
        action: 'clock-in',
        orgId: a.org.id,
        at: new Date(Date.now() + 6 * 60_000).toISOString(),
      });
      expect(ahead.statusCode).toBe(422);
      expect(ahead.json().message).toBe(clockMessages.inTheFuture);
      expect(
        (await call(me, { action: 'clock-in', orgId: a.org.id, at: '2026-11-23 08:02' }))
          .statusCode,
      ).toBe(400);
      expect(await rowsOf(me.id)).toEqual([]);
    });

    it('refuses every impossible move with 422 and writes nothing', async () => {
      const me = await newStaff();
      const act = async (action: string, at?: string) => {
        const res = await call(me, { action, orgId: a.org.id, ...(at ? { at } : {}) });
        return { status: res.statusCode, message: res.json().message as string };
      };
      expect(await act('clock-out')).toEqual({ status: 422, message: clockMessages.notClockedIn });
      expect(await act('start-break')).toEqual({
        status: 422,
        message: clockMessages.notClockedIn,
      });
      expect(await act('end-break')).toEqual({ status: 422, message: clockMessages.notOnBreak });
      expect(await rowsOf(me.id)).toEqual([]);

      await act('clock-in', t0('08:02'));
      const [running] = await rowsOf(me.id);
      expect(await act('clock-in')).toEqual({
        status: 422,
        message: clockMessages.alreadyClockedIn,
      });
      expect(await act('end-break')).toEqual({ status: 422, message: clockMessages.notOnBreak });
      expect(await act('clock-out', t0('07:00'))).toEqual({
        status: 422,
        message: timeEntryMessages.endsBeforeStart,
      });
      await act('start-break', t0('09:00'));
      expect(await act('start-break')).toEqual({
        status: 422,
        message: clockMessages.alreadyOnBreak,
      });
      expect(await act('clock-in')).toEqual({
        status: 422,
        message: clockMessages.alreadyClockedIn,
      });
      const rows = await rowsOf(me.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        id: running?.id,
        endTime: null,
        breakIntervals: [{ startTime: t0('09:00'), endTime: null }],
      });
    });

    it('closes a running break when clocking out during it', async () => {
      const me = await newStaff();
      for (const [action, at] of [
        ['clock-in', '08:00'],
        ['start-break', '12:00'],
        ['clock-out', '12:30'],
      ] as const) {
        expect((await call(me, { action, orgId: a.org.id, at: t0(at) })).statusCode).toBe(200);
      }
      const [row] = await rowsOf(me.id);
      expect(row?.endTime?.toISOString()).toBe(t0('12:30'));
      expect(row?.breakIntervals).toEqual([{ startTime: t0('12:00'), endTime: t0('12:30') }]);
    });

    it('lets exactly one of several simultaneous clock-ins for one person succeed', async () => {
      const me = await newStaff();
      const results = await Promise.all(
        Array.from({ length: 4 }, () => call(me, { action: 'clock-in', orgId: a.org.id })),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 422, 422, 422]);
      expect(results.filter((r) => r.statusCode === 422).map((r) => r.json().message)).toEqual(
        Array(3).fill(clockMessages.alreadyClockedIn),
      );
      expect(await rowsOf(me.id)).toHaveLength(1);
    });
  });

  describe('entries', () => {
    it('creates, lists, updates and deletes (as a tombstone) an entry', async () => {
      const me = await newStaff();
      const times = {
        startTime: t0('08:00'),
        endTime: t0('12:00'),
        breakIntervals: [{ startTime: t0('10:00'), endTime: t0('10:10') }],
      };
      const created = await call(me, {
        action: 'create-time-entry',
        orgId: a.org.id,
        timeEntry: times,
      });
      expect(created.statusCode).toBe(200);
      const entry = created.json();
      expect(entry).toEqual({
        id: expect.any(String),
        orgId: a.org.id,
        userId: me.id,
        ...times,
        updatedAt: expect.any(String),
      });
      expect(
        (await call(me, { action: 'get-time-entries', orgId: a.org.id })).json().entries,
      ).toEqual([entry]);

      // Only endTime is sent: the breaks are kept.
      const updated = await call(me, {
        action: 'update-time-entry',
        orgId: a.org.id,
        entryId: entry.id,
        timeEntry: { endTime: t0('13:00') },
      });
      expect(updated.statusCode).toBe(200);
      expect(updated.json()).toEqual({
        ...entry,
        endTime: t0('13:00'),
        updatedAt: expect.any(String),
      });

      expect(
        (
          await call(me, { action: 'delete-time-entry', orgId: a.org.id, entryId: entry.id })
        ).json(),
      ).toEqual({ ok: true });
      const [row] = await rowsOf(me.id);
      expect(row?.deleted).toBe(true);
      expect(
        (await call(me, { action: 'get-time-entries', orgId: a.org.id })).json().entries,
      ).toEqual([]);
      expect(
        (await call(me, { action: 'get-current-status', orgId: a.org.id })).json().status,
      ).toBe('none');
      const again = await call(me, {
        action: 'delete-time-entry',
        orgId: a.org.id,
        entryId: entry.id,
      });
      expect(again.statusCode).toBe(404);
      expect(again.json().message).toBe(timeTrackingMessages.notFound);
    });

    it('accepts delete’s deleteData form, and an id in upper case', async () => {
      const me = await newStaff();
      const { id } = (
        await call(me, {
          action: 'create-time-entry',
          orgId: a.org.id,
          timeEntry: { startTime: t0('08:00'), endTime: t0('09:00') },
        })
      ).json();
      // Upper case names the same uuid.
      const res = await call(me, {
        action: 'delete-time-entry',
        orgId: a.org.id,
        deleteData: { entryId: id.toUpperCase() },
      });
      expect(res.json()).toEqual({ ok: true });
      expect(await rowsOf(me.id)).toMatchObject([{ id, deleted: true }]);
    });

    it('refuses entries that break a rule with 422 and changes nothing', async () => {
      const me = await newStaff();
      const create = (timeEntry: object) =>
        call(me, { action: 'create-time-entry', orgId: a.org.id, timeEntry });
      const backwards = await create({ startTime: t0('10:00'), endTime: t0('09:00') });
      expect([backwards.statusCode, backwards.json().message]).toEqual([
        422,
        timeEntryMessages.endsBeforeStart,
      ]);
      const outside = await create({
        startTime: t0('10:00'),
        endTime: t0('11:00'),
        breakIntervals: [{ startTime: t0('11:30'), endTime: t0('11:40') }],
      });
      expect([outside.statusCode, outside.json().message]).toEqual([
        422,
        timeEntryMessages.breakOutside,
      ]);
      expect(await rowsOf(me.id)).toEqual([]);

      const { id } = (await create({ startTime: t0('08:00'), endTime: t0('09:00') })).json();
      const bad = await call(me, {
        action: 'update-time-entry',
        orgId: a.org.id,
        entryId: id,
        timeEntry: { endTime: t0('07:00') },
      });
      expect([bad.statusCode, bad.json().message]).toEqual([
        422,
        timeEntryMessages.endsBeforeStart,
      ]);
      expect((await rowsOf(me.id))[0]?.endTime?.toISOString()).toBe(t0('09:00'));

      await call(me, { action: 'clock-in', orgId: a.org.id, at: t0('12:00') });
      const secondRunning = await create({ startTime: t0('13:00'), endTime: null });
      expect([secondRunning.statusCode, secondRunning.json().message]).toEqual([
        422,
        clockMessages.anotherEntryRunning,
      ]);
      const reopen = await call(me, {
        action: 'update-time-entry',
        orgId: a.org.id,
        entryId: id,
        timeEntry: { endTime: null },
      });
      expect([reopen.statusCode, reopen.json().message]).toEqual([
        422,
        clockMessages.anotherEntryRunning,
      ]);
    });

    it('refuses an entry for someone who is not staff of the organisation', async () => {
      const res = await call(a.manager, {
        action: 'create-time-entry',
        orgId: a.org.id,
        timeEntry: { userId: a.parent.id, startTime: t0('08:00'), endTime: t0('09:00') },
      });
      expect([res.statusCode, res.json().message]).toEqual([
        422,
        timeEntryServiceMessages.notStaff,
      ]);
    });

    it('lists entries overlapping from/to', async () => {
      const me = await newStaff();
      const day = (d: string) => ({
        startTime: `2026-11-${d}T08:00:00.000Z`,
        endTime: `2026-11-${d}T16:00:00.000Z`,
      });
      for (const d of ['20', '21', '22'])
        await call(me, { action: 'create-time-entry', orgId: a.org.id, timeEntry: day(d) });
      const res = await call(me, {
        action: 'get-time-entries',
        orgId: a.org.id,
        from: '2026-11-21T12:00:00.000Z',
        to: '2026-11-22T09:00:00.000Z',
      });
      expect(res.json().entries.map((e: Entry) => e.startTime)).toEqual([
        day('22').startTime,
        day('21').startTime,
      ]);
    });
  });

  describe('who may do what (spec §6)', () => {
    it('needs a session (401), even for a malformed body', async () => {
      expect((await call(null, { action: 'clock-in', orgId: a.org.id })).statusCode).toBe(401);
      expect((await call(null, { nonsense: true })).statusCode).toBe(401);
    });

    it('refuses customers, staff without a time-tracking claim and another organisation (403)', async () => {
      const noClaim = await newStaff(['view-customers']);
      for (const [who, orgId] of [
        [a.parent, a.org.id],
        [noClaim, a.org.id],
        [a.manager, b.org.id],
        [a.staff, b.org.id],
      ] as const) {
        for (const action of ['clock-in', 'get-current-status', 'get-time-entries']) {
          expect((await call(who, { action, orgId })).statusCode, `${action} in ${orgId}`).toBe(
            403,
          );
        }
      }
    });

    it('keeps manage-own-time-tracking to the caller’s own entries', async () => {
      const me = await newStaff();
      const other = await newStaff();
      const { id } = (
        await call(other, {
          action: 'create-time-entry',
          orgId: a.org.id,
          timeEntry: { startTime: t0('08:00'), endTime: t0('09:00') },
        })
      ).json();
      const attempts = [
        { action: 'clock-in', userId: other.id },
        { action: 'get-current-status', userId: other.id },
        { action: 'get-time-entries', userId: other.id },
        { action: 'get-time-entries', userId: 'all' },
        {
          action: 'create-time-entry',
          timeEntry: { userId: other.id, startTime: t0('10:00'), endTime: t0('11:00') },
        },
        { action: 'update-time-entry', entryId: id, timeEntry: { endTime: t0('09:30') } },
        { action: 'delete-time-entry', entryId: id },
      ];
      for (const body of attempts) {
        const res = await call(me, { ...body, orgId: a.org.id });
        expect([res.statusCode, res.json().message], body.action).toEqual([
          403,
          timeTrackingMessages.ownOnly,
        ]);
      }
      expect(await rowsOf(other.id)).toMatchObject([
        { id, deleted: false, endTime: new Date(t0('09:00')) },
      ]);
    });

    it('lets manage-others-time-tracking act for anyone in the organisation, and no further', async () => {
      const worker = await newStaff();
      const clockIn = await call(a.manager, {
        action: 'clock-in',
        orgId: a.org.id,
        userId: worker.id,
        at: t0('07:30'),
      });
      expect(clockIn.json().status).toBe('active');
      expect(
        (await call(worker, { action: 'get-current-status', orgId: a.org.id })).json(),
      ).toEqual(clockIn.json());
      const all = (
        await call(a.manager, { action: 'get-time-entries', orgId: a.org.id, userId: 'all' })
      ).json().entries as Entry[];
      expect(all.some((e) => e.userId === worker.id)).toBe(true);
      const theirs = (
        await call(a.manager, { action: 'get-time-entries', orgId: a.org.id, userId: worker.id })
      ).json().entries as Entry[];
      expect(theirs.map((e) => e.id)).toEqual([clockIn.json().activeEntry.id]);

      const foreign = (
        await call(b.manager, {
          action: 'create-time-entry',
          orgId: b.org.id,
          timeEntry: { startTime: t0('08:00'), endTime: t0('09:00') },
        })
      ).json();
      const reach = await call(a.manager, {
        action: 'delete-time-entry',
        orgId: a.org.id,
        entryId: foreign.id,
      });
      expect(reach.statusCode).toBe(404);
      expect(
        (
          await call(a.manager, { action: 'get-time-entries', orgId: a.org.id, userId: 'all' })
        ).json().entries,
      ).not.toContainEqual(foreign);
    });
  });

  describe('validation', () => {
    it.each([
      ['no action', { orgId: 'x' }],
      ['an unknown action', { action: 'clock-sideways' }],
      ['no orgId', { action: 'clock-in', orgId: undefined }],
      ['an orgId that is not a uuid', { action: 'get-current-status', orgId: 'org-1' }],
      ['a delete without entryId', { action: 'delete-time-entry' }],
      [
        'an update without timeEntry',
        { action: 'update-time-entry', entryId: '6a4ad6a4-1d0f-4c53-9a2b-2a51a7c7a001' },
      ],
      [
        'a create with a bad time',
        { action: 'create-time-entry', timeEntry: { startTime: 'today', endTime: null } },
      ],
      [
        'get-time-entries for userId “everyone”',
        { action: 'get-time-entries', userId: 'everyone' },
      ],
    ])('answers %s with 400 and the zod issues', async (_name, body) => {
      const res = await call(a.manager, { orgId: a.org.id, ...body });
      expect(res.statusCode).toBe(400);
      expect(res.json().issues.length).toBeGreaterThan(0);
    });
  });

  describe('one write path with replication (guarantee 4)', () => {
    it('tells a live client about a clock-in, and a pull returns the same entry', async () => {
      const me = await newStaff();
      const stream = await openSse(
        `${base}/api/sync/stream`,
        a.manager.jar.headers() as Record<string, string>,
      );
      try {
        await stream.next((e) => e.event === 'resync');
        const clockIn = await call(me, { action: 'clock-in', orgId: a.org.id, at: t0('08:02') });
        const change = await stream.next(changeOf('time-entries'));
        await waitForVisibility(t.db);
        const pulled = await t.app.inject({
          url: '/api/sync/time-entries/pull?batchSize=1000',
          headers: me.jar.headers(),
        });
        expect(pulled.json().checkpoint.lsn).toBeGreaterThanOrEqual(JSON.parse(change.data).lsn);
        expect(pulled.json().documents).toEqual([
          {
            id: clockIn.json().activeEntry.id,
            orgId: a.org.id,
            userId: me.id,
            startTime: t0('08:02'),
            endTime: null,
            breakIntervals: [],
            updatedAt: t0('08:02'),
            _deleted: false,
          },
        ]);
      } finally {
        stream.close();
      }
    });

    it('sees an entry pushed by replication, and acts on it', async () => {
      const me = await newStaff();
      const doc = timeEntry(a.org.id, me.id, {
        startTime: t0('06:00'),
        endTime: null,
        updatedAt: t0('06:00'),
      });
      const push = await t.app.inject({
        method: 'POST',
        url: '/api/sync/time-entries/push',
        headers: me.jar.headers(),
        payload: [{ assumedMasterState: null, newDocumentState: doc }],
      });
      expect(push.json()).toEqual([]);
      expect((await call(me, { action: 'get-current-status', orgId: a.org.id })).json()).toEqual({
        status: 'active',
        activeEntry: { id: doc.id, startTime: t0('06:00'), breakIntervals: [] },
      });
      expect(
        (await call(me, { action: 'get-time-entries', orgId: a.org.id }))
          .json()
          .entries.map((e: Entry) => e.id),
      ).toEqual([doc.id]);
      expect((await call(me, { action: 'clock-in', orgId: a.org.id })).json().message).toBe(
        clockMessages.alreadyClockedIn,
      );

      await call(me, { action: 'clock-out', orgId: a.org.id, at: t0('14:00') });
      await waitForVisibility(t.db);
      const pulled = (
        await t.app.inject({ url: '/api/sync/time-entries/pull', headers: me.jar.headers() })
      ).json();
      expect(pulled.documents).toEqual([{ ...doc, endTime: t0('14:00'), updatedAt: t0('14:00') }]);
      // A device still holding the running entry now meets the API's clock-out as a conflict.
      const stale = await t.app.inject({
        method: 'POST',
        url: '/api/sync/time-entries/push',
        headers: me.jar.headers(),
        payload: [
          {
            assumedMasterState: doc,
            newDocumentState: {
              ...doc,
              breakIntervals: [{ startTime: t0('09:00'), endTime: null }],
            },
          },
        ],
      });
      expect(stale.json()).toEqual(pulled.documents);
    });
  });
});
