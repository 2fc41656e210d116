import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { timeEntries } from '@platform/schema/db';
import { timeEntryOverlapMessage } from '@platform/schema/time-tracking/time-tracking.messages';
import { addMembership, insertTestUser, logInAs } from '../testing/auth-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { seedSyncOrg, timeEntry, type Person } from '../testing/sync-fixtures.ts';

// A past day: a clock action may not lie ahead of the server's clock.
const t0 = (hhmm: string) => `2026-11-03T${hhmm}:00.000Z`;

/** Issue 6: no overlapping entries for one person — on the API and on replication push alike. */
describe.each(testDatabaseKinds)('overlapping time entries on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;

  const call = (who: Person, body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/time-tracking',
      headers: who.jar.headers(),
      payload: { orgId: a.org.id, ...body },
    });
  const push = (
    who: Person,
    rows: Array<{ assumedMasterState: unknown; newDocumentState: unknown }>,
  ) =>
    t.app.inject({
      method: 'POST',
      url: '/api/sync/time-entries/push',
      headers: who.jar.headers(),
      payload: rows,
    });
  const pushNew = (who: Person, docs: object[]) =>
    push(
      who,
      docs.map((doc) => ({ assumedMasterState: null, newDocumentState: doc })),
    );
  const create = (who: Person, startTime: string, endTime: string | null, userId?: string) =>
    call(who, {
      action: 'create-time-entry',
      timeEntry: { startTime, endTime, ...(userId ? { userId } : {}) },
    });
  const newStaff = async (): Promise<Person> => {
    const user = await insertTestUser(t.db);
    await addMembership(t.db, user.id, a.org.id, 'staff', ['manage-own-time-tracking']);
    const { jar } = await logInAs(t.app, user.email ?? '', {
      profileType: 'use-org',
      profileOrgId: a.org.id,
    });
    return { id: user.id, email: user.email ?? '', jar };
  };
  const liveRowsOf = async (userId: string) =>
    (await t.db.select().from(timeEntries).where(eq(timeEntries.userId, userId))).filter(
      (row) => !row.deleted,
    );

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await seedSyncOrg(t.app, t.db);
  });
  afterAll(() => t.close());

  describe('through POST /api/time-tracking', () => {
    it('refuses creating or moving an entry over another of the same person, with the rule’s message', async () => {
      const me = await newStaff();
      expect((await create(me, t0('08:00'), t0('12:00'))).statusCode).toBe(200);
      const over = await create(me, t0('11:00'), t0('13:00'));
      expect([over.statusCode, over.json().message]).toEqual([422, timeEntryOverlapMessage]);
      // Touching is not overlapping.
      const after = await create(me, t0('12:00'), t0('13:00'));
      expect(after.statusCode).toBe(200);
      const moved = await call(me, {
        action: 'update-time-entry',
        entryId: after.json().id,
        timeEntry: { startTime: t0('11:59') },
      });
      expect([moved.statusCode, moved.json().message]).toEqual([422, timeEntryOverlapMessage]);
      expect((await liveRowsOf(me.id)).map((r) => r.startTime.toISOString()).sort()).toEqual([
        t0('08:00'),
        t0('12:00'),
      ]);
    });

    it('refuses a clock-in inside a finished entry, and a manager’s entry over someone’s running one', async () => {
      const me = await newStaff();
      await create(me, t0('08:00'), t0('12:00'));
      const clockIn = await call(me, { action: 'clock-in', at: t0('11:30') });
      expect([clockIn.statusCode, clockIn.json().message]).toEqual([422, timeEntryOverlapMessage]);
      expect((await call(me, { action: 'clock-in', at: t0('12:30') })).statusCode).toBe(200);
      const byManager = await create(a.manager, t0('14:00'), t0('15:00'), me.id);
      expect([byManager.statusCode, byManager.json().message]).toEqual([
        422,
        timeEntryOverlapMessage,
      ]);
      // Another person's hours are theirs: the same times for someone else are fine.
      expect((await create(a.manager, t0('14:00'), t0('15:00'), a.staff.id)).statusCode).toBe(200);
      // Clocking out shortens the running entry: never an overlap.
      expect((await call(me, { action: 'clock-out', at: t0('13:00') })).statusCode).toBe(200);
    });

    it('lets a deleted entry’s hours be recorded again', async () => {
      const me = await newStaff();
      const { id } = (await create(me, t0('08:00'), t0('12:00'))).json();
      expect((await call(me, { action: 'delete-time-entry', entryId: id })).statusCode).toBe(200);
      expect((await create(me, t0('09:00'), t0('10:00'))).statusCode).toBe(200);
    });
  });

  describe('through replication push', () => {
    it('refuses a pushed entry over a stored one with 422 and the reason, writing nothing of the push', async () => {
      const me = await newStaff();
      const stored = (await create(me, t0('08:00'), t0('12:00'))).json();
      const fine = timeEntry(a.org.id, me.id, { startTime: t0('13:00'), endTime: t0('14:00') });
      const over = timeEntry(a.org.id, me.id, { startTime: t0('09:00'), endTime: t0('10:00') });
      const res = await pushNew(me, [fine, over]);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual([{ id: over.id, message: timeEntryOverlapMessage }]);
      expect((await liveRowsOf(me.id)).map((r) => r.id)).toEqual([stored.id]);
    });

    it('refuses two different entries running at once (two devices each clocked in offline)', async () => {
      const me = await newStaff();
      const kiosk = timeEntry(a.org.id, me.id, { startTime: t0('08:02'), endTime: null });
      const phone = timeEntry(a.org.id, me.id, { startTime: t0('08:05'), endTime: null });
      expect((await pushNew(me, [kiosk])).json()).toEqual([]);
      const second = await pushNew(me, [phone]);
      expect([second.statusCode, second.json().errors]).toEqual([
        422,
        [{ id: phone.id, message: timeEntryOverlapMessage }],
      ]);
      // The same entry changed on two devices is merged by the conflict rule instead: accepted.
      const clockedOut = { ...kiosk, endTime: t0('16:00'), updatedAt: t0('16:00') };
      expect(
        (await push(me, [{ assumedMasterState: kiosk, newDocumentState: clockedOut }])).json(),
      ).toEqual([]);
      expect((await pushNew(me, [{ ...phone, startTime: t0('16:00') }])).json()).toEqual([]);
    });

    it('refuses an API entry over a pushed one, and checks a push against itself', async () => {
      const me = await newStaff();
      expect(
        (
          await pushNew(me, [
            timeEntry(a.org.id, me.id, { startTime: t0('08:00'), endTime: t0('12:00') }),
          ])
        ).json(),
      ).toEqual([]);
      expect((await create(me, t0('10:00'), t0('11:00'))).json().message).toBe(
        timeEntryOverlapMessage,
      );
      const first = timeEntry(a.org.id, me.id, {
        startTime: t0('13:00'),
        endTime: t0('15:00'),
        updatedAt: t0('15:00'),
      });
      const second = timeEntry(a.org.id, me.id, {
        startTime: t0('14:00'),
        endTime: t0('16:00'),
        updatedAt: t0('16:00'),
      });
      expect((await pushNew(me, [second, first])).json().errors).toEqual([
        { id: second.id, message: timeEntryOverlapMessage },
      ]);
    });
  });

  it('lets exactly one of many simultaneous overlapping writes for one person through, whichever path', async () => {
    const me = await newStaff();
    const attempts = await Promise.all([
      ...Array.from({ length: 4 }, (_, i) =>
        pushNew(me, [
          timeEntry(a.org.id, me.id, { startTime: t0(`0${i + 1}:00`), endTime: t0('09:00') }),
        ]),
      ),
      ...Array.from({ length: 4 }, (_, i) => create(me, t0(`0${i + 5}:30`), t0('10:00'))),
    ]);
    const accepted = attempts.filter((res) => res.statusCode === 200);
    expect(accepted).toHaveLength(1);
    for (const res of attempts.filter((r) => r.statusCode !== 200)) {
      expect(res.statusCode).toBe(422);
      expect(JSON.stringify(res.json())).toContain(timeEntryOverlapMessage);
    }
    expect(await liveRowsOf(me.id)).toHaveLength(1);
  });
});
