import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { classOccurrences, organizations, scheduleClasses } from '@platform/schema/db';
import { scheduleMessages, type ClassInput } from '@platform/schema/schedule/schedule.zod';
import { addMembership, insertTestUser, logInAs } from '../testing/auth-fixtures.ts';
import { booking, seedSyncOrg, type Person } from '../testing/sync-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

const weekly = (over: Partial<ClassInput> = {}): ClassInput => ({
  kind: 'class',
  title: 'Spin',
  description: '',
  location: 'Studio',
  coachUserId: null,
  capacity: 10,
  priceMinor: null,
  entitlingProductIds: [],
  punchCardGroupIds: [],
  firstStart: '2027-03-01T18:00',
  durationMinutes: 45,
  recurrence: { weekdays: ['MO', 'WE'], intervalWeeks: 1, end: { kind: 'count', count: 6 } },
  ...over,
});

/**
 * The schedule routes (issue 16) as a matrix of who asks: staff with manage-schedule of the
 * organisation, staff without it, another organisation's staff, customers, the Jobber
 * platform — and what staff make: class times in the organisation's zone across a clock change,
 * a series edit that leaves a time changed on its own alone, a cancelled time's people.
 */
describe.each(testDatabaseKinds)('the schedule routes on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;
  let b: Awaited<ReturnType<typeof seedSyncOrg>>;
  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await seedSyncOrg(t.app, t.db);
    b = await seedSyncOrg(t.app, t.db);
    await t.db
      .update(organizations)
      .set({ attributes: { timezone: 'America/New_York' } })
      .where(eq(organizations.id, a.org.id));
  });
  afterAll(async () => t?.close());

  const call = (
    who: Person | null,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH',
    url: string,
    payload?: object,
  ) =>
    t.app.inject({
      method,
      url,
      headers: who?.jar.headers() ?? {},
      ...(payload ? { payload } : {}),
    });
  const timesOf = (classId: string) =>
    t.db
      .select()
      .from(classOccurrences)
      .where(eq(classOccurrences.classId, classId))
      .orderBy(classOccurrences.startsAt);

  it('makes every time of a weekly class in the organisation’s zone, across the clock change', async () => {
    // New York springs forward on Sunday 2027-03-14: 18:00 is 23:00 UTC before, 22:00 after.
    const res = await call(a.manager, 'POST', '/api/schedule/classes', weekly());
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      occurrences: 6,
      class: { rrule: 'FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,WE;COUNT=6' },
    });
    const times = await timesOf(res.json().class.id);
    expect(times.map((o) => o.startsAt.toISOString())).toEqual([
      '2027-03-01T23:00:00.000Z',
      '2027-03-03T23:00:00.000Z',
      '2027-03-08T23:00:00.000Z',
      '2027-03-10T23:00:00.000Z',
      '2027-03-15T22:00:00.000Z',
      '2027-03-17T22:00:00.000Z',
    ]);
    expect(times.every((o) => o.cancelBy.getTime() === o.startsAt.getTime() - 2 * 3_600_000)).toBe(
      true,
    );
  });

  it('moves the series but leaves a time changed on its own, and tells the people of a cancelled time', async () => {
    const made = (
      await call(a.manager, 'POST', '/api/schedule/classes', weekly({ title: 'Row' }))
    ).json();
    const [first, second] = await timesOf(made.class.id);
    const moved = await call(a.manager, 'PATCH', `/api/schedule/occurrences/${first!.id}`, {
      start: '2027-03-01T07:00',
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ startsAt: '2027-03-01T12:00:00.000Z', detached: true });
    const saved = await call(
      a.manager,
      'PUT',
      `/api/schedule/classes/${made.class.id}`,
      weekly({ title: 'Row', firstStart: '2027-03-01T19:00' }),
    );
    expect(saved.statusCode).toBe(200);
    const after = await timesOf(made.class.id);
    expect(after.find((o) => o.id === first!.id)?.startsAt.toISOString()).toBe(
      '2027-03-01T12:00:00.000Z',
    );
    expect(after.find((o) => o.id === second!.id)?.startsAt.toISOString()).toBe(
      '2027-03-04T00:00:00.000Z',
    );

    await t.app.inject({
      method: 'POST',
      url: '/api/sync/bookings/push',
      headers: a.parent.jar.headers(),
      payload: [
        {
          assumedMasterState: null,
          newDocumentState: booking(a.org.id, a.parent.id, { occurrenceId: second!.id }),
        },
      ],
    });
    const cancelled = await call(a.manager, 'PATCH', `/api/schedule/occurrences/${second!.id}`, {
      cancelled: true,
    });
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', bookedCount: 0 });
    // Capacity below the people booked is refused with the words of schema/.
    const [third] = (await timesOf(made.class.id)).filter(
      (o) => o.status === 'scheduled' && o.id !== first!.id,
    );
    await t.db
      .update(classOccurrences)
      .set({ bookedCount: 3 })
      .where(eq(classOccurrences.id, third!.id));
    const tooSmall = await call(a.manager, 'PATCH', `/api/schedule/occurrences/${third!.id}`, {
      capacity: 2,
    });
    expect(tooSmall.statusCode).toBe(422);
    expect(tooSmall.json().message).toBe(scheduleMessages.capacityBelowBooked);
  });

  it('answers only staff with manage-schedule of the organisation', async () => {
    const made = (
      await call(a.manager, 'POST', '/api/schedule/classes', weekly({ title: 'Box' }))
    ).json();
    const [time] = await timesOf(made.class.id);
    // Without the claim, as a customer, signed out: refused before the body is read.
    for (const who of [a.staff, a.parent]) {
      expect((await call(who, 'POST', '/api/schedule/classes', weekly())).statusCode).toBe(403);
      expect(
        (await call(who, 'POST', '/api/schedule/classes', { nonsense: true })).statusCode,
      ).toBe(403);
      expect((await call(who, 'GET', '/api/schedule/coaches')).statusCode).toBe(403);
      expect(
        (await call(who, 'PATCH', `/api/schedule/occurrences/${time!.id}`, { cancelled: true }))
          .statusCode,
      ).toBe(403);
    }
    expect((await call(null, 'POST', '/api/schedule/classes', weekly())).statusCode).toBe(401);
    // Another organisation's staff: its ids are not found there.
    expect(
      (await call(b.manager, 'PUT', `/api/schedule/classes/${made.class.id}`, weekly())).statusCode,
    ).toBe(404);
    expect(
      (await call(b.manager, 'PATCH', `/api/schedule/occurrences/${time!.id}`, { cancelled: true }))
        .statusCode,
    ).toBe(404);
    const [still] = await t.db
      .select()
      .from(classOccurrences)
      .where(eq(classOccurrences.id, time!.id));
    expect(still?.status).toBe('scheduled');
    // Only this organisation's staff may coach; only its products may entitle.
    const foreignCoach = await call(
      a.manager,
      'POST',
      '/api/schedule/classes',
      weekly({ coachUserId: b.manager.id }),
    );
    expect(foreignCoach.json().message).toBe(scheduleMessages.coachUnknown);
    const foreignProduct = await call(
      a.manager,
      'POST',
      '/api/schedule/classes',
      weekly({ entitlingProductIds: [crypto.randomUUID()] }),
    );
    expect(foreignProduct.json().message).toBe(scheduleMessages.productsUnknown);
    // Malformed input is a 400, never a 500.
    expect(
      (await call(a.manager, 'PATCH', '/api/schedule/occurrences/not-an-id', { cancelled: true }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await call(
          a.manager,
          'POST',
          '/api/schedule/classes',
          weekly({ firstStart: '2027-02-30T18:00' }),
        )
      ).statusCode,
    ).toBeLessThan(500);
    expect(
      (await call(a.manager, 'POST', '/api/schedule/classes', weekly({ capacity: 0 }))).statusCode,
    ).toBe(400);
  });

  it('has no schedule on the Jobber platform', async () => {
    const [jobber] = await t.db
      .insert(organizations)
      .values({ label: 'Lawns', platform: 'jobber' })
      .returning();
    const owner = await insertTestUser(t.db);
    await addMembership(t.db, owner.id, jobber!.id, 'staff');
    const { jar } = await logInAs(t.app, owner.email!, {
      profileType: 'use-org',
      profileOrgId: jobber!.id,
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/schedule/classes',
      headers: jar.headers(),
      payload: weekly(),
    });
    expect(res.statusCode).toBe(403);
    expect(
      await t.db.select().from(scheduleClasses).where(eq(scheduleClasses.orgId, jobber!.id)),
    ).toEqual([]);
  });
});
