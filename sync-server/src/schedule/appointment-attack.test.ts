import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import {
  appointmentTypes,
  bookings,
  classOccurrences,
  organizations,
  products,
  punchCardCredits,
  staffAvailability,
} from '@platform/schema/db';
import { bookingMessages } from '@platform/schema/bookings/booking.rules';
import {
  APPOINTMENT_HORIZON_MS,
  appointmentMessages,
  appointmentSlots,
  type AppointmentTypeDoc,
  type AppointmentTypeDraft,
  type AvailabilityInput,
} from '@platform/schema/schedule/appointments.zod';
import {
  addDays,
  dayKeyOf,
  instantOfWallTime,
  startOfDay,
} from '@platform/schema/time-tracking/org-calendar';
import { addMembership, insertTestUser, linkChild } from '../testing/auth-fixtures.ts';
import { insertOccurrence } from '../testing/schedule-fixtures.ts';
import {
  booking,
  pullAs,
  pulledAs,
  pushAs,
  pushChangeAs,
  pushNewAs,
  seedSyncOrg,
  signedInCustomer,
  type Person,
} from '../testing/sync-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

/**
 * Attacks on appointments (issue 16): one-to-one bookings a customer's device asks for as a
 * booking with `appointment: {typeId, staffUserId, startsAt}` and a class-time id it names.
 * Each test asserts the SAFE behaviour, so it fails when the attack succeeds. PostgreSQL when
 * DATABASE_URL is set, else PGlite.
 */
const kind = testDatabaseKinds[0] ?? 'pglite';
const ZONE = 'Europe/Berlin';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Doc = Record<string, unknown> & { id: string; status: string };
type Org = Awaited<ReturnType<typeof seedSyncOrg>>;

const everyDay: AvailabilityInput = {
  weekly: (['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const).map((weekday) => ({
    weekday,
    from: '08:00',
    to: '20:00',
  })),
  exceptions: [],
};

describe(`attacks on appointments (${kind})`, () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Org;
  let b: Org;

  beforeAll(async () => {
    // Refused requests and cancellations leave notice jobs: time to finish before closing.
    t = await createTestApp(kind, { jobs: { stopTimeoutMs: 15_000 } });
    a = await seedSyncOrg(t.app, t.db);
    b = await seedSyncOrg(t.app, t.db);
    for (const org of [a, b])
      await t.db
        .update(organizations)
        .set({ attributes: { timezone: ZONE } })
        .where(eq(organizations.id, org.org.id));
  });
  afterAll(async () => t?.close());

  // ---------------------------------------------------------------------------------------
  // Harness
  // ---------------------------------------------------------------------------------------

  const call = (
    who: Person | null,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ) =>
    t.app.inject({
      method,
      url,
      headers: who?.jar.headers() ?? {},
      ...(payload ? { payload } : {}),
    });
  const push = (who: Person, rows: unknown, collection = 'bookings') =>
    pushAs(t, who, collection, rows);
  const pushNew = (who: Person, docs: object[]) => pushNewAs(t, who, 'bookings', docs);
  const change = (who: Person, master: Doc, next: Record<string, unknown>) =>
    pushChangeAs(t, who, 'bookings', master, next);
  const stored = async (id: string) =>
    (await t.db.select().from(bookings).where(eq(bookings.id, id)))[0];
  const timeRow = async (id: string) =>
    (await t.db.select().from(classOccurrences).where(eq(classOccurrences.id, id)))[0];
  const pull = async (who: Person, collection: string): Promise<Doc[]> => {
    const res = await pullAs(t, who, collection, '?batchSize=1000');
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { documents: Doc[] }).documents;
  };
  const pulled = async (who: Person, id: string) => (await pulledAs(t, who, 'bookings', id)) as Doc;
  const customer = (org: Org = a) => signedInCustomer(t.app, t.db, org.org.id);

  /** A new member of staff (no claims) with `hours` saved by the organisation's manager. */
  async function staffWithHours(hours: AvailabilityInput = everyDay, org: Org = a) {
    const user = await insertTestUser(t.db);
    await addMembership(t.db, user.id, org.org.id, 'staff', []);
    const res = await call(org.manager, 'PUT', `/api/schedule/staff-hours/${user.id}`, hours);
    expect(res.statusCode, res.body).toBe(200);
    return user.id;
  }

  async function makeType(
    staffUserIds: string[],
    over: Partial<AppointmentTypeDraft> = {},
    org: Org = a,
  ): Promise<AppointmentTypeDoc> {
    const res = await call(org.manager, 'POST', '/api/schedule/appointment-types', {
      title: 'Session',
      durationMinutes: 60,
      bufferMinutes: 15,
      staffUserIds,
      ...over,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }

  /** Free starts with a staff member 3–9 days ahead, as a device computes them. */
  async function freeStarts(
    type: AppointmentTypeDoc,
    staffUserId: string,
    hours: AvailabilityInput = everyDay,
  ) {
    const busy = await t.db
      .select({ from: classOccurrences.startsAt, to: classOccurrences.endsAt })
      .from(classOccurrences)
      .where(
        and(
          eq(classOccurrences.coachUserId, staffUserId),
          sql`${classOccurrences.status} <> 'cancelled'`,
        ),
      );
    const now = Date.now();
    return appointmentSlots({
      type,
      hours,
      busy: busy.map((r) => ({ from: r.from.getTime(), to: r.to.getTime() })),
      // From the morning of a day ahead, whatever the time now: the tests ask hours after the
      // first free start, which from an evening start would fall outside the hours.
      window: { from: startOfDay(dayKeyOf(now + 3 * DAY, ZONE), ZONE), to: now + 9 * DAY },
      notBefore: now,
    }).map((slot) => slot.from);
  }

  /** A request for an appointment, made just now (so no "refused offline" notice is queued). */
  const ask = (
    who: { id: string },
    type: { id: string; orgId: string },
    staffUserId: string,
    startsAt: number | string,
    over: Record<string, unknown> = {},
  ) => {
    const at = new Date().toISOString();
    return booking(type.orgId, who.id, {
      occurrenceId: randomUUID(),
      appointment: {
        typeId: type.id,
        staffUserId,
        startsAt: typeof startsAt === 'string' ? startsAt : new Date(startsAt).toISOString(),
      },
      requestedAt: at,
      updatedAt: at,
      ...over,
    });
  };

  /** A punch-card group with `credits` credits given to `customerUserId` in `org`. */
  async function creditsFor(customerUserId: string, credits: number, org: Org = a) {
    const groupId = randomUUID();
    const [pack] = await t.db
      .insert(products)
      .values({
        orgId: org.org.id,
        name: 'PT pack',
        type: 'one-time',
        schedule: 'one-time',
        priceMinor: 20_000,
        processorProductId: `prod_sandbox_${groupId}`,
        punchCardConfiguration: { groups: [{ id: groupId, name: 'PT', credits }] },
      })
      .returning();
    if (credits > 0)
      await t.db.insert(punchCardCredits).values({
        orgId: org.org.id,
        customerUserId,
        productId: pack!.id,
        productName: 'PT pack',
        groupId,
        groupName: 'PT',
        delta: credits,
        reason: 'import',
      });
    const balance = async (personId = customerUserId) =>
      (
        await t.db
          .select({ delta: punchCardCredits.delta })
          .from(punchCardCredits)
          .where(
            and(
              eq(punchCardCredits.customerUserId, personId),
              eq(punchCardCredits.groupId, groupId),
            ),
          )
      ).reduce((sum, row) => sum + row.delta, 0);
    return { groupId, productId: pack!.id, balance };
  }

  /** The appointments a staff member gives (not cancelled), in order. */
  const appointmentsOf = async (staffUserId: string) =>
    (
      await t.db
        .select({ from: classOccurrences.startsAt, to: classOccurrences.endsAt })
        .from(classOccurrences)
        .where(
          and(
            eq(classOccurrences.coachUserId, staffUserId),
            eq(classOccurrences.kind, 'appointment'),
            eq(classOccurrences.status, 'scheduled'),
          ),
        )
    )
      .map((r) => ({ from: r.from.getTime(), to: r.to.getTime() }))
      .sort((x, y) => x.from - y.from);

  /** No two of them overlap, with `bufferMinutes` kept clear between. */
  const expectNoOverlap = (times: Array<{ from: number; to: number }>, bufferMinutes: number) => {
    for (let i = 1; i < times.length; i++)
      expect(
        times[i]!.from,
        `appointment ${new Date(times[i]!.from).toISOString()} overlaps the one before`,
      ).toBeGreaterThanOrEqual(times[i - 1]!.to + bufferMinutes * 60_000);
  };

  /** A booked appointment pushed into the past (time passing), its cut-off long gone. */
  const moveIntoPast = async (occurrenceId: string) => {
    const now = Date.now();
    await t.db
      .update(classOccurrences)
      .set({
        startsAt: new Date(now - 30 * 60_000),
        endsAt: new Date(now + 30 * 60_000),
        cancelBy: new Date(now - 3 * HOUR),
      })
      .where(sql`${classOccurrences.id}::text = lower(${occurrenceId})`);
  };

  // ---------------------------------------------------------------------------------------
  // Double-booking a member of staff
  // ---------------------------------------------------------------------------------------

  it('never double-books a staff member asked for overlapping, different starts at once', async () => {
    const staffId = await staffWithHours();
    const type = await makeType([staffId], { durationMinutes: 60, bufferMinutes: 15 });
    const [slot] = await freeStarts(type, staffId);
    const people = await Promise.all(Array.from({ length: 12 }, () => customer()));
    // Every quarter hour for three hours: each overlaps several others.
    const asks = people.map((who, i) => ask(who, type, staffId, slot! + i * 15 * 60_000));
    const answers = await Promise.all(asks.map((doc, i) => pushNew(people[i]!, [doc])));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(12).fill(200));
    const verdicts = await Promise.all(asks.map((doc) => stored(doc.id)));
    expect(verdicts.filter((v) => v?.status === 'booked').length).toBeGreaterThanOrEqual(1);
    const times = await appointmentsOf(staffId);
    expect(times).toHaveLength(verdicts.filter((v) => v?.status === 'booked').length);
    expectNoOverlap(times, 15);
  });

  it('books one of overlapping requests in one push, and never one class-time id twice', async () => {
    const staffId = await staffWithHours();
    const type = await makeType([staffId], { durationMinutes: 60, bufferMinutes: 0 });
    const [slot] = await freeStarts(type, staffId);
    const who = await customer();
    const one = ask(who, type, staffId, slot!);
    const two = ask(who, type, staffId, slot! + 30 * 60_000);
    // A third, clear of both, under the first one's class-time id.
    const three = ask(who, type, staffId, slot! + 4 * HOUR, { occurrenceId: one.occurrenceId });
    expect((await pushNew(who, [one, two, three])).statusCode).toBe(200);
    // Decided in the push's order (by booking id), whichever comes first.
    const [s1, s2, s3] = await Promise.all([one, two, three].map(async (d) => stored(d.id)));
    const booked = (...rows: Array<{ status: string } | undefined>) =>
      rows.filter((row) => row?.status === 'booked').length;
    // The two overlapping requests: one place between them.
    expect(booked(s1, s2)).toBe(1);
    // The one class-time id: one class time, held by at most one of the two naming it.
    expect(booked(s1, s3)).toBeLessThanOrEqual(1);
    const rows = await t.db
      .select()
      .from(classOccurrences)
      .where(eq(classOccurrences.id, one.occurrenceId));
    expect(rows).toHaveLength(1);
    expect(await appointmentsOf(staffId)).toHaveLength(booked(s1, s2, s3));
    expectNoOverlap(await appointmentsOf(staffId), 0);
    // Overlapping again in a second push: nothing more.
    const again = ask(who, type, staffId, slot! + 15 * 60_000);
    await pushNew(who, [again]);
    expect((await stored(again.id))?.status).toBe('refused');
    expect(await appointmentsOf(staffId)).toHaveLength(booked(s1, s2, s3));
  });

  it('decides requests for two staff members raced in opposite orders: no deadlock, one each', async () => {
    const x = await staffWithHours();
    const y = await staffWithHours();
    const type = await makeType([x, y], { durationMinutes: 45, bufferMinutes: 0 });
    const [slotX] = await freeStarts(type, x);
    const [slotY] = await freeStarts(type, y);
    const people = await Promise.all(Array.from({ length: 10 }, () => customer()));
    const pushes = people.map((who, i) => {
      const forX = ask(who, type, x, slotX!);
      const forY = ask(who, type, y, slotY!);
      return { who, docs: i % 2 ? [forX, forY] : [forY, forX] };
    });
    const answers = await Promise.all(pushes.map(({ who, docs }) => pushNew(who, docs)));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(await appointmentsOf(x)).toHaveLength(1);
    expect(await appointmentsOf(y)).toHaveLength(1);
  });

  it('keeps to no overlap, and never a 500, while staff change the hours under requests', async () => {
    const staffId = await staffWithHours();
    const type = await makeType([staffId], { durationMinutes: 30, bufferMinutes: 10 });
    const starts = await freeStarts(type, staffId);
    const people = await Promise.all(Array.from({ length: 8 }, () => customer()));
    const asks = people.map((who, i) => ask(who, type, staffId, starts[i * 2]!));
    const closed: AvailabilityInput = { weekly: [], exceptions: [] };
    const answers = await Promise.all([
      ...asks.map((doc, i) => pushNew(people[i]!, [doc])),
      call(a.manager, 'PUT', `/api/schedule/staff-hours/${staffId}`, closed),
      call(a.manager, 'PUT', `/api/schedule/staff-hours/${staffId}`, everyDay),
      call(a.manager, 'PUT', `/api/schedule/staff-hours/${staffId}`, closed),
    ]);
    for (const res of answers) expect(res.statusCode, res.body).toBeLessThan(500);
    const times = await appointmentsOf(staffId);
    const booked = (await Promise.all(asks.map((d) => stored(d.id)))).filter(
      (v) => v?.status === 'booked',
    );
    expect(times).toHaveLength(booked.length);
    expectNoOverlap(times, 10);
    // Closed (the racing saves landed in any order; this one last): nothing more is booked.
    expect(
      (await call(a.manager, 'PUT', `/api/schedule/staff-hours/${staffId}`, closed)).statusCode,
    ).toBe(200);
    const late = ask(people[0]!, type, staffId, starts[starts.length - 1]!);
    await pushNew(people[0]!, [late]);
    expect(await stored(late.id)).toMatchObject({
      status: 'refused',
      refusal: appointmentMessages.slotTaken,
    });
  });

  // Found broken by the adversarial review, fixed since: busyTimesOf filters by orgId, so a person on two organisations' staff is booked twice at one time.
  it('never books one person at the same time through two organisations they work for', async () => {
    const person = await insertTestUser(t.db);
    await addMembership(t.db, person.id, a.org.id, 'staff', []);
    await addMembership(t.db, person.id, b.org.id, 'staff', []);
    for (const org of [a, b])
      expect(
        (await call(org.manager, 'PUT', `/api/schedule/staff-hours/${person.id}`, everyDay))
          .statusCode,
      ).toBe(200);
    const typeA = await makeType([person.id], { bufferMinutes: 0 }, a);
    const typeB = await makeType([person.id], { bufferMinutes: 0 }, b);
    const [slot] = await freeStarts(typeA, person.id);
    const [ca, cb] = await Promise.all([customer(a), customer(b)]);
    const inA = ask(ca, typeA, person.id, slot!);
    const inB = ask(cb, typeB, person.id, slot!);
    await pushNew(ca, [inA]);
    await pushNew(cb, [inB]);
    const verdicts = [await stored(inA.id), await stored(inB.id)];
    expect(verdicts.filter((v) => v?.status === 'booked')).toHaveLength(1);
  });

  // Found broken by the adversarial review, fixed since: a booked appointment's own buffer is not kept — busy times are bare, so a type with no buffer books right next to it.
  it('keeps the buffer of an appointment already booked when a type without a buffer is asked beside it', async () => {
    const staffId = await staffWithHours();
    const padded = await makeType([staffId], { durationMinutes: 30, bufferMinutes: 30 });
    const bare = await makeType([staffId], { durationMinutes: 30, bufferMinutes: 0 });
    const [slot] = await freeStarts(padded, staffId);
    const who = await customer();
    const first = ask(who, padded, staffId, slot! + 2 * HOUR);
    await pushNew(who, [first]);
    expect((await stored(first.id))?.status).toBe('booked');
    // Straight after it, inside its 30-minute buffer.
    const after = ask(who, bare, staffId, slot! + 2 * HOUR + 30 * 60_000);
    await pushNew(who, [after]);
    expect(await stored(after.id)).toMatchObject({
      status: 'refused',
      refusal: appointmentMessages.slotTaken,
    });
  });

  // ---------------------------------------------------------------------------------------
  // Hours, days off, DST and odd times
  // ---------------------------------------------------------------------------------------

  it('refuses starts outside the hours, on a day off, off the grid, and in hours a DST change removes', async () => {
    const dayOff = dayKeyOf(Date.now() + 4 * DAY, ZONE);
    // The next days Berlin's clocks change (last Sundays of March and October), a week ahead.
    const lastSundayOf = (year: number, month: number) => {
      const last = new Date(Date.UTC(year, month, 0));
      last.setUTCDate(last.getUTCDate() - last.getUTCDay());
      return last.toISOString().slice(0, 10);
    };
    const nextChange = (month: number, after = Date.now() + 7 * DAY) => {
      let year = new Date(after).getUTCFullYear();
      while (Date.parse(lastSundayOf(year, month)) < after) year++;
      return lastSundayOf(year, month);
    };
    const spring = nextChange(3);
    const autumn = nextChange(10);
    const gap = nextChange(3, Date.parse(spring) + 2 * DAY);
    const hours: AvailabilityInput = {
      weekly: everyDay.weekly,
      exceptions: [
        { day: dayOff, hours: [] },
        // Clocks go forward at 02:00 (to 03:00): three wall hours are two real ones.
        { day: spring, hours: [{ from: '01:00', to: '04:00' }] },
        // Clocks go back at 03:00 (to 02:00): three wall hours are four real ones.
        { day: autumn, hours: [{ from: '01:00', to: '04:00' }] },
        // An hour that does not exist that day.
        { day: gap, hours: [{ from: '02:00', to: '03:00' }] },
      ],
    };
    const staffId = await staffWithHours(hours);
    const type = await makeType([staffId], { durationMinutes: 60, bufferMinutes: 0 });
    const who = await customer();
    const wall = (day: string, time: string) =>
      instantOfWallTime(Date.parse(`${day}T${time}:00.000Z`), ZONE);
    const utc = (day: string, time: string) => Date.parse(`${day}T${time}:00.000Z`);
    const refusedStarts = [
      wall(dayOff, '10:00'),
      wall(addDays(dayOff, 1), '07:45'),
      wall(addDays(dayOff, 1), '19:15'),
      wall(addDays(dayOff, 1), '10:07'),
      wall(addDays(dayOff, 1), '10:00') + 1,
      utc(spring, '01:15'), // 03:15 CEST: ends 04:15, after closing
      utc(addDays(spring, -1), '23:45'), // 00:45 CET: before opening
      utc(autumn, '02:15'), // 03:15 CET: ends 04:15, after closing
      utc(addDays(autumn, -1), '22:45'), // 00:45 CEST: before opening
      utc(gap, '01:00'), // 03:00 CEST: the hour 02–03 never was
      utc(gap, '00:45'), // 01:45 CET: ends in the hour that never was
    ];
    const refusedAsks = refusedStarts.map((ms) => ask(who, type, staffId, ms));
    expect((await pushNew(who, refusedAsks)).statusCode).toBe(200);
    // The next spring change after this one may lie beyond the booking horizon (a year): then
    // the horizon refuses those starts first (the schema's unit tests cover the gap itself).
    const beyond = (ms: number) => ms > Date.now() + APPOINTMENT_HORIZON_MS;
    for (const [i, doc] of refusedAsks.entries())
      expect(await stored(doc.id), new Date(refusedStarts[i]!).toISOString()).toMatchObject({
        status: 'refused',
        refusal: beyond(refusedStarts[i]!)
          ? appointmentMessages.tooFarAhead
          : appointmentMessages.slotTaken,
      });
    // The real hours either side of the changes are offered in full.
    const bookedStarts = [
      utc(spring, '00:00'), // 01:00 CET
      utc(spring, '01:00'), // 03:00 CEST, ends at closing
      utc(addDays(autumn, -1), '23:00'), // 01:00 CEST
      utc(autumn, '02:00'), // 03:00 CET, ends at closing
    ];
    const fine = bookedStarts.map((ms) => ask(who, type, staffId, ms));
    await pushNew(who, fine);
    for (const doc of fine) expect((await stored(doc.id))?.status, doc.id).toBe('booked');
    expect(await appointmentsOf(staffId)).toHaveLength(4);
  });

  it('refuses odd spellings of a start (offsets, no Z, no ms, year 9999, NaN) without a 500', async () => {
    const staffId = await staffWithHours();
    const type = await makeType([staffId]);
    const who = await customer();
    for (const startsAt of [
      '2027-01-05T10:00:00.000+01:00',
      '2027-01-05T10:00:00.000',
      '2027-01-05T10:00:00Z',
      '2027-01-05 10:00:00.000Z',
      '2027-02-30T10:00:00.000Z',
      '2027-01-05T24:00:00.000Z',
      '9999-01-01T09:00:00.000Z',
      '+275760-09-13T00:00:00.000Z',
      '1899-12-31T10:00:00.000Z',
      'NaN',
      'Invalid Date',
      '',
      '1799150400000',
    ]) {
      const doc = ask(who, type, staffId, startsAt);
      const res = await pushNew(who, [doc]);
      expect(res.statusCode, startsAt).toBe(422);
      expect(await stored(doc.id), startsAt).toBeUndefined();
      expect(await timeRow(doc.occurrenceId), startsAt).toBeUndefined();
    }
    for (const startsAt of [1799150400000, '10:00', null, {}, []]) {
      const doc = booking(a.org.id, who.id, {
        occurrenceId: randomUUID(),
        appointment: { typeId: type.id, staffUserId: staffId, startsAt },
      });
      const res = await pushNew(who, [doc]);
      expect(res.statusCode, JSON.stringify(startsAt)).toBe(422);
    }
    // The last day the range allows: answered in words, never a 500.
    const far = ask(who, type, staffId, '2199-12-31T09:00:00.000Z');
    const res = await pushNew(who, [far]);
    expect(res.statusCode).toBeLessThan(500);
    expect(await appointmentsOf(staffId)).toHaveLength(
      (await stored(far.id))?.status === 'booked' ? 1 : 0,
    );
  });

  // ---------------------------------------------------------------------------------------
  // The class-time id the device names
  // ---------------------------------------------------------------------------------------

  // Found broken by the adversarial review, fixed since: a non-canonical UUID (upper case, no hyphens, braces) is booked; the booking's occurrenceId then never matches the class time's id.
  it('never books an appointment under a class-time id spelled other than as a lower-case UUID', async () => {
    const staffId = await staffWithHours();
    const type = await makeType([staffId], { bufferMinutes: 0 });
    const starts = await freeStarts(type, staffId);
    const who = await customer();
    const variants = [
      randomUUID().toUpperCase(),
      randomUUID().replaceAll('-', ''),
      `{${randomUUID()}}`,
    ];
    for (const [i, occurrenceId] of variants.entries()) {
      const doc = ask(who, type, staffId, starts[i * 8]!, { occurrenceId });
      const res = await pushNew(who, [doc]);
      expect(res.statusCode, occurrenceId).toBeLessThan(500);
      const row = await stored(doc.id);
      if (row?.status === 'booked') {
        // Booked: the class time must be findable under the booking's id as written.
        const [same] = await t.db
          .select({ id: classOccurrences.id })
          .from(classOccurrences)
          .where(sql`${classOccurrences.id}::text = ${row.occurrenceId}`);
        expect.soft(same, `booked under ${occurrenceId}`).toBeDefined();
      }
    }
  });

  // Found broken by the adversarial review, fixed since: with an upper-case occurrenceId the push's lockOccurrences skips it (lower-case regex), so the cut-off/started check is skipped and the credit is refunded.
  it('refuses cancelling an appointment asked under an upper-case id after it began, for a credit back', async () => {
    const staffId = await staffWithHours();
    const who = await customer();
    const { groupId, balance } = await creditsFor(who.id, 1);
    const type = await makeType([staffId], {
      priceMinor: 5_000,
      punchCardGroupIds: [groupId],
    });
    const [slot] = await freeStarts(type, staffId);
    const mine = ask(who, type, staffId, slot!, { occurrenceId: randomUUID().toUpperCase() });
    await pushNew(who, [mine]);
    if ((await stored(mine.id))?.status !== 'booked') return; // refused: nothing to exploit
    expect(await balance()).toBe(0);
    await moveIntoPast(mine.occurrenceId);
    const master = await pulled(who, mine.id);
    const res = await change(who, master, { status: 'cancelled' });
    expect(res.statusCode, 'cancellation after the start accepted').toBe(422);
    expect(await balance()).toBe(0);
  });

  // Found broken by the adversarial review, fixed since: staff cancelling the class time finds no booking (text 'ABC…' ≠ uuid 'abc…'): the customer keeps a 'booked' place, credit spent.
  it('cancels (and refunds) an appointment asked under an upper-case id when staff cancel its class time', async () => {
    const staffId = await staffWithHours();
    const who = await customer();
    const { groupId, balance } = await creditsFor(who.id, 1);
    const type = await makeType([staffId], { priceMinor: 5_000, punchCardGroupIds: [groupId] });
    const [slot] = await freeStarts(type, staffId);
    const mine = ask(who, type, staffId, slot!, { occurrenceId: randomUUID().toUpperCase() });
    await pushNew(who, [mine]);
    if ((await stored(mine.id))?.status !== 'booked') return;
    const res = await call(
      a.manager,
      'PATCH',
      `/api/schedule/occurrences/${mine.occurrenceId.toLowerCase()}`,
      { cancelled: true },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect((await stored(mine.id))?.status).toBe('cancelled');
    expect(await balance()).toBe(1);
  });

  // Found broken by the adversarial review, fixed since: occurrenceIdTaken casts the device's id to uuid in SQL: a non-UUID id fails the whole push with a 500 (a device retries for ever).
  it('answers an appointment asked under a class-time id that is no UUID in words, never a 500', async () => {
    const staffId = await staffWithHours();
    const type = await makeType([staffId]);
    const [slot] = await freeStarts(type, staffId);
    const who = await customer();
    for (const occurrenceId of ['not-a-uuid', "x' or '1'='1", '0'.repeat(100), 'yoga-2026']) {
      const doc = ask(who, type, staffId, slot!, { occurrenceId });
      const res = await pushNew(who, [doc]);
      expect(res.statusCode, occurrenceId).toBeLessThan(500);
      if (res.statusCode === 200) expect((await stored(doc.id))?.status).toBe('refused');
    }
  });

  it('refuses naming another organisation’s class time or a cancelled appointment’s id', async () => {
    const staffId = await staffWithHours();
    const type = await makeType([staffId], { bufferMinutes: 0 });
    const starts = await freeStarts(type, staffId);
    const who = await customer();
    const { occurrence: theirs } = await insertOccurrence(t.db, b.org.id, { capacity: 5 });
    const hijack = ask(who, type, staffId, starts[0]!, { occurrenceId: theirs.id });
    await pushNew(who, [hijack]);
    expect(await stored(hijack.id)).toMatchObject({ status: 'refused' });
    expect(await timeRow(theirs.id)).toMatchObject({
      orgId: b.org.id,
      kind: 'class',
      bookedCount: 0,
      startsAt: theirs.startsAt,
    });
    // A cancelled appointment's id: neither revived for another customer nor for its own.
    const mine = ask(who, type, staffId, starts[4]!);
    await pushNew(who, [mine]);
    expect((await stored(mine.id))?.status).toBe('booked');
    const held = await pulled(who, mine.id);
    expect((await change(who, held, { status: 'cancelled' })).statusCode).toBe(200);
    expect(await timeRow(mine.occurrenceId)).toMatchObject({ status: 'cancelled', bookedCount: 0 });
    const other = await customer();
    const reuse = ask(other, type, staffId, starts[4]!, { occurrenceId: mine.occurrenceId });
    await pushNew(other, [reuse]);
    expect((await stored(reuse.id))?.status).toBe('refused');
    const asked = await change(who, await pulled(who, mine.id), { status: 'requested' });
    expect(asked.statusCode).toBe(200);
    expect((await stored(mine.id))?.status).toBe('refused');
    expect(await timeRow(mine.occurrenceId)).toMatchObject({ status: 'cancelled', bookedCount: 0 });
    // The same id, upper-cased: refused at the door (ids are lower-case UUIDs), nothing stored.
    const shouted = ask(other, type, staffId, starts[4]!, {
      occurrenceId: mine.occurrenceId.toUpperCase(),
    });
    const door = await pushNew(other, [shouted]);
    expect(door.statusCode).toBe(422);
    expect(door.json().errors[0].message).toBe(appointmentMessages.newTimeId);
    expect(await stored(shouted.id)).toBeUndefined();
    expect(await timeRow(mine.occurrenceId)).toMatchObject({ status: 'cancelled', bookedCount: 0 });
  });

  it('refuses moving an asked appointment to another person, staff member, type or class time', async () => {
    const x = await staffWithHours();
    const y = await staffWithHours();
    const type = await makeType([x, y]);
    const other = await makeType([x, y], { title: 'Other' });
    const [slot] = await freeStarts(type, x);
    const who = await customer();
    const mine = ask(who, type, x, slot!);
    await pushNew(who, [mine]);
    const master = await pulled(who, mine.id);
    expect(master.status).toBe('booked');
    const appointment = master.appointment as Record<string, string>;
    for (const next of [
      { appointment: { ...appointment, staffUserId: y } },
      { appointment: { ...appointment, typeId: other.id } },
      { appointment: null },
      { occurrenceId: randomUUID() },
      { customerUserId: a.childId },
    ]) {
      const res = await change(who, master, next);
      expect(res.statusCode, JSON.stringify(next)).toBe(422);
    }
    expect(await stored(mine.id)).toMatchObject({ status: 'booked', appointment });
  });

  // ---------------------------------------------------------------------------------------
  // Whose types, whose staff, whose people
  // ---------------------------------------------------------------------------------------

  it('refuses another organisation’s type or staff, and staff who do not give the type', async () => {
    const staffA = await staffWithHours();
    const otherA = await staffWithHours();
    const staffB = await staffWithHours(everyDay, b);
    const typeA = await makeType([staffA]);
    const typeB = await makeType([staffB], {}, b);
    const [slot] = await freeStarts(typeA, staffA);
    const who = await customer();
    const cases = [
      [ask(who, { id: typeB.id, orgId: a.org.id }, staffB, slot!), appointmentMessages.typeGone],
      [ask(who, typeA, staffB, slot!), appointmentMessages.staffGone],
      [ask(who, typeA, otherA, slot!), appointmentMessages.staffGone],
      [ask(who, typeA, a.manager.id, slot!), appointmentMessages.staffGone],
      [ask(who, typeA, who.id, slot!), appointmentMessages.staffGone],
      [ask(who, typeA, staffA.toUpperCase(), slot!), appointmentMessages.staffGone],
    ] as const;
    for (const [doc, refusal] of cases) {
      await pushNew(who, [doc]);
      expect(await stored(doc.id)).toMatchObject({ status: 'refused', refusal });
    }
    // Pushed into org B directly, with B's own type: not theirs to write.
    const direct = await pushNew(who, [ask(who, typeB, staffB, slot!)]);
    expect(direct.statusCode).toBe(422);
    expect(await appointmentsOf(staffB)).toEqual([]);
    expect(await appointmentsOf(otherA)).toEqual([]);
  });

  // Found broken by the adversarial review, fixed since: checkAskedAppointment never checks the person is still on the team; removing staff leaves their hours and types bookable.
  it('refuses an appointment with a member of staff taken off the team', async () => {
    const staffId = await staffWithHours();
    const type = await makeType([staffId]);
    const [slot] = await freeStarts(type, staffId);
    const removed = await call(a.manager, 'DELETE', `/api/team/members/${staffId}`);
    expect(removed.statusCode, removed.body).toBe(200);
    const who = await customer();
    const doc = ask(who, type, staffId, slot!);
    await pushNew(who, [doc]);
    expect(await stored(doc.id)).toMatchObject({ status: 'refused' });
    expect(await appointmentsOf(staffId)).toEqual([]);
  });

  it('refuses an appointment of a type no longer offered or no longer given by that person', async () => {
    const x = await staffWithHours();
    const y = await staffWithHours();
    const type = await makeType([x, y]);
    const [slot] = await freeStarts(type, x);
    const changed = await call(a.manager, 'PUT', `/api/schedule/appointment-types/${type.id}`, {
      title: 'Session',
      durationMinutes: 60,
      staffUserIds: [y],
    });
    expect(changed.statusCode).toBe(200);
    const who = await customer();
    const dropped = ask(who, type, x, slot!);
    await pushNew(who, [dropped]);
    expect(await stored(dropped.id)).toMatchObject({
      status: 'refused',
      refusal: appointmentMessages.staffGone,
    });
    expect(
      (await call(a.manager, 'DELETE', `/api/schedule/appointment-types/${type.id}`)).statusCode,
    ).toBe(204);
    const archived = ask(who, type, y, slot!);
    await pushNew(who, [archived]);
    expect(await stored(archived.id)).toMatchObject({
      status: 'refused',
      refusal: appointmentMessages.typeGone,
    });
  });

  it('refuses appointments for people outside the family; a child’s is paid with the child’s credits only', async () => {
    const staffId = await staffWithHours();
    const { groupId, balance } = await creditsFor(a.parent.id, 2);
    const type = await makeType([staffId], { priceMinor: 5_000, punchCardGroupIds: [groupId] });
    const starts = await freeStarts(type, staffId);
    const stranger = await customer();
    const kid = await insertTestUser(t.db, { email: null, withPassword: false });
    await addMembership(t.db, kid.id, a.org.id, 'customer');
    await linkChild(t.db, a.parent.id, kid.id, a.org.id, { confirmed: false });
    for (const personId of [stranger.id, a.otherCustomerId, kid.id, b.parent.id, a.staff.id]) {
      const doc = ask({ id: personId }, type, staffId, starts[0]!);
      const res = await pushNew(a.parent, [doc]);
      expect(res.statusCode, personId).toBe(422);
      expect(await stored(doc.id)).toBeUndefined();
    }
    // The confirmed child: the parent's credits do not pay for the child's appointment.
    const forChild = ask({ id: a.childId }, type, staffId, starts[0]!);
    expect((await pushNew(a.parent, [forChild])).statusCode).toBe(200);
    expect(await stored(forChild.id)).toMatchObject({
      status: 'refused',
      refusal: bookingMessages.payAtBooking,
    });
    expect(await balance()).toBe(2);
    expect(await appointmentsOf(staffId)).toEqual([]);
  });

  // ---------------------------------------------------------------------------------------
  // Paying: credits, prices, refunds
  // ---------------------------------------------------------------------------------------

  it('never spends one credit on two appointments asked at once', async () => {
    const staffId = await staffWithHours();
    const who = await customer();
    const { groupId, balance } = await creditsFor(who.id, 1);
    const type = await makeType([staffId], {
      priceMinor: 5_000,
      punchCardGroupIds: [groupId],
      bufferMinutes: 0,
    });
    const starts = await freeStarts(type, staffId);
    const asks = Array.from({ length: 6 }, (_, i) => ask(who, type, staffId, starts[i * 8]!));
    const answers = await Promise.all(asks.map((doc) => pushNew(who, [doc])));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
    const verdicts = await Promise.all(asks.map((d) => stored(d.id)));
    expect(verdicts.filter((v) => v?.status === 'booked')).toHaveLength(1);
    expect(await balance()).toBe(0);
    expect(await appointmentsOf(staffId)).toHaveLength(1);
  });

  it('books no priced appointment for free, whatever the device says it paid with', async () => {
    const staffId = await staffWithHours();
    const type = await makeType([staffId], { priceMinor: 9_000 });
    const [slot] = await freeStarts(type, staffId);
    const who = await customer();
    const sly = ask(who, type, staffId, slot!, {
      paidWith: 'subscription',
      decidedAt: '2020-01-01T00:00:00.000Z',
      refusal: null,
    });
    await pushNew(who, [sly]);
    expect(await stored(sly.id)).toMatchObject({
      status: 'refused',
      paidWith: null,
      refusal: bookingMessages.payAtBooking,
    });
    expect(await timeRow(sly.occurrenceId)).toBeUndefined();
    // A type made free later does not turn the refusal into a place without asking again.
    await t.db
      .update(appointmentTypes)
      .set({ priceMinor: null })
      .where(eq(appointmentTypes.id, type.id));
    const master = await pulled(who, sly.id);
    await change(who, master, { status: 'cancelled' });
    expect((await stored(sly.id))?.status).toBe('cancelled');
    expect(await appointmentsOf(staffId)).toEqual([]);
  });

  it('gives one credit back for a cancelled appointment, however often it is cancelled or asked again', async () => {
    const staffId = await staffWithHours();
    const who = await customer();
    const { groupId, balance } = await creditsFor(who.id, 1);
    const type = await makeType([staffId], { priceMinor: 5_000, punchCardGroupIds: [groupId] });
    const [slot] = await freeStarts(type, staffId);
    const mine = ask(who, type, staffId, slot!);
    await pushNew(who, [mine]);
    expect(await stored(mine.id)).toMatchObject({ status: 'booked', paidWith: 'credit' });
    expect(await balance()).toBe(0);
    const held = await pulled(who, mine.id);
    const answers = await Promise.all([
      change(who, held, { status: 'cancelled' }),
      change(who, held, { status: 'cancelled' }),
      change(a.manager, held, { status: 'cancelled' }),
    ]);
    for (const res of answers) expect(res.statusCode).toBeLessThan(500);
    expect(await balance()).toBe(1);
    for (let round = 0; round < 3; round++) {
      const now = await pulled(who, mine.id);
      await change(who, now, { status: now.status === 'cancelled' ? 'requested' : 'cancelled' });
    }
    await change(a.manager, await pulled(who, mine.id), { status: 'cancelled' });
    expect(await balance()).toBe(1);
    expect(await appointmentsOf(staffId)).toEqual([]);
    const staffCancel = await call(
      a.manager,
      'PATCH',
      `/api/schedule/occurrences/${mine.occurrenceId}`,
      {
        cancelled: true,
      },
    );
    expect(staffCancel.statusCode).toBeLessThan(500);
    expect(await balance()).toBe(1);
  });

  it('refuses cancelling an appointment after its start, or after the cut-off, for a credit back', async () => {
    const staffId = await staffWithHours();
    const who = await customer();
    const { groupId, balance } = await creditsFor(who.id, 2);
    const type = await makeType([staffId], { priceMinor: 5_000, punchCardGroupIds: [groupId] });
    const starts = await freeStarts(type, staffId);
    const begun = ask(who, type, staffId, starts[0]!);
    const late = ask(who, type, staffId, starts[12]!);
    await pushNew(who, [begun, late]);
    expect(await balance()).toBe(0);
    await moveIntoPast(begun.occurrenceId);
    const res = await change(who, await pulled(who, begun.id), { status: 'cancelled' });
    expect(res.statusCode, 'cancellation after the start accepted').toBe(422);
    // Starts in an hour; the cut-off was an hour ago; the device says it cancelled in time.
    const now = Date.now();
    await t.db
      .update(classOccurrences)
      .set({
        startsAt: new Date(now + HOUR),
        endsAt: new Date(now + 2 * HOUR),
        cancelBy: new Date(now - HOUR),
      })
      .where(eq(classOccurrences.id, late.occurrenceId));
    const honest = await change(who, await pulled(who, late.id), { status: 'cancelled' });
    expect(honest.statusCode).toBe(422);
    expect(await balance()).toBe(0);
  });

  it('refunds once when the customer and staff cancel an appointment at the same moment', async () => {
    const staffId = await staffWithHours();
    const who = await customer();
    const { groupId, balance } = await creditsFor(who.id, 1);
    const type = await makeType([staffId], { priceMinor: 5_000, punchCardGroupIds: [groupId] });
    const [slot] = await freeStarts(type, staffId);
    const mine = ask(who, type, staffId, slot!);
    await pushNew(who, [mine]);
    expect(await balance()).toBe(0);
    const held = await pulled(who, mine.id);
    const answers = await Promise.all([
      change(who, held, { status: 'cancelled' }),
      call(a.manager, 'PATCH', `/api/schedule/occurrences/${mine.occurrenceId}`, {
        cancelled: true,
      }),
      change(who, held, { status: 'cancelled' }),
    ]);
    for (const r of answers) expect(r.statusCode, r.body).toBeLessThan(500);
    expect(await balance()).toBe(1);
    expect(await timeRow(mine.occurrenceId)).toMatchObject({ status: 'cancelled', bookedCount: 0 });
    expect((await stored(mine.id))?.status).toBe('cancelled');
  });

  // ---------------------------------------------------------------------------------------
  // The replicated timetable, types and hours
  // ---------------------------------------------------------------------------------------

  it('refuses writing appointment types, hours and appointments’ class times by replication', async () => {
    const staffId = await staffWithHours();
    const type = await makeType([staffId], { priceMinor: 7_000 });
    const [slot] = await freeStarts(type, staffId);
    const mine = ask(a.parent, type, staffId, slot!, { customerUserId: a.childId });
    // Staff book it (at the desk) so there is an appointment class time to tamper with.
    await pushNew(a.manager, [mine]);
    expect((await stored(mine.id))?.status).toBe('booked');
    const targets = [
      {
        collection: 'appointment-types',
        id: type.id,
        edit: { priceMinor: 0, staffUserIds: [a.staff.id] },
      },
      {
        collection: 'availability',
        id: (
          await t.db
            .select({ id: staffAvailability.id })
            .from(staffAvailability)
            .where(eq(staffAvailability.userId, staffId))
        )[0]!.id,
        edit: { weekly: [], exceptions: [] },
      },
      {
        collection: 'occurrences',
        id: mine.occurrenceId,
        edit: { capacity: 50, bookedCount: 0, status: 'cancelled' },
      },
    ];
    for (const { collection, id, edit } of targets) {
      const doc = (await pull(a.parent, collection)).find((d) => d.id === id);
      expect(doc, `${collection} ${id} replicated`).toBeDefined();
      for (const who of [a.parent, a.manager, a.staff]) {
        const res = await push(
          who,
          [
            {
              assumedMasterState: doc,
              newDocumentState: { ...doc, ...edit, updatedAt: new Date().toISOString() },
            },
            {
              assumedMasterState: null,
              newDocumentState: { ...doc, ...edit, id: randomUUID() },
            },
          ],
          collection,
        );
        expect(res.statusCode, `${collection} by ${who.id}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${collection} by ${who.id}`).toBeLessThan(500);
      }
    }
    const [typeRow] = await t.db
      .select()
      .from(appointmentTypes)
      .where(eq(appointmentTypes.id, type.id));
    expect(typeRow).toMatchObject({ priceMinor: 7_000, staffUserIds: [staffId] });
    const [hours] = await t.db
      .select()
      .from(staffAvailability)
      .where(eq(staffAvailability.userId, staffId));
    expect(hours?.weekly).toHaveLength(7);
    expect(await timeRow(mine.occurrenceId)).toMatchObject({
      capacity: 1,
      bookedCount: 1,
      status: 'scheduled',
    });
  });

  it('keeps hours and types to staff with manage-schedule (not a member of staff’s own hours)', async () => {
    const type = await makeType([a.staff.id]);
    const before = await call(a.manager, 'GET', '/api/schedule/staff-hours');
    const body = { title: 'Mine', durationMinutes: 5, priceMinor: 0, staffUserIds: [a.staff.id] };
    for (const who of [a.staff, a.parent, b.manager]) {
      const hours = await call(who, 'PUT', `/api/schedule/staff-hours/${a.staff.id}`, {
        weekly: [{ weekday: 'MO', from: '00:00', to: '23:59' }],
        exceptions: [],
      });
      expect(hours.statusCode, `hours by ${who.id}`).toBeGreaterThanOrEqual(403);
      expect(hours.statusCode).toBeLessThan(500);
      const edit = await call(who, 'PUT', `/api/schedule/appointment-types/${type.id}`, body);
      expect(edit.statusCode, `type by ${who.id}`).toBeGreaterThanOrEqual(403);
      expect(edit.statusCode).toBeLessThan(500);
      const gone = await call(who, 'DELETE', `/api/schedule/appointment-types/${type.id}`);
      expect(gone.statusCode).toBeGreaterThanOrEqual(403);
      expect(gone.statusCode).toBeLessThan(500);
    }
    for (const who of [a.staff, a.parent]) {
      const made = await call(who, 'POST', '/api/schedule/appointment-types', body);
      expect(made.statusCode).toBe(403);
    }
    const [row] = await t.db
      .select()
      .from(appointmentTypes)
      .where(eq(appointmentTypes.id, type.id));
    expect(row).toMatchObject({ title: 'Session', deleted: false, durationMinutes: 60 });
    expect((await call(a.manager, 'GET', '/api/schedule/staff-hours')).json()).toEqual(
      before.json(),
    );
  });

  it('refuses malformed, oversized and foreign hours bodies and ids in the wrong case', async () => {
    const staffId = await staffWithHours();
    const url = `/api/schedule/staff-hours/${staffId}`;
    const monday = (n: number) =>
      Array.from({ length: n }, () => ({ weekday: 'MO', from: '09:00', to: '10:00' }));
    const days = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ day: addDays('2027-01-01', i), hours: [] }));
    for (const bad of [
      { weekly: monday(141), exceptions: [] },
      { weekly: [], exceptions: days(367) },
      { weekly: [], exceptions: [...days(2), ...days(1)] },
      { weekly: [{ weekday: 'XX', from: '09:00', to: '10:00' }], exceptions: [] },
      { weekly: [{ weekday: 'MO', from: '9:00', to: '10:00' }], exceptions: [] },
      { weekly: [{ weekday: 'MO', from: '09:00', to: '24:00' }], exceptions: [] },
      { weekly: [{ weekday: 'MO', from: '10:00', to: '10:00' }], exceptions: [] },
      { weekly: [], exceptions: [{ day: '2027-02-30', hours: [] }] },
      { weekly: [], exceptions: [{ day: '27-01-01', hours: [] }] },
      { weekly: 'all day' },
      { weekly: [{ weekday: 'MO', from: { $gt: '' }, to: '10:00' }], exceptions: [] },
    ]) {
      const res = await call(a.manager, 'PUT', url, bad);
      expect(res.statusCode, JSON.stringify(bad).slice(0, 60)).toBe(400);
    }
    const huge = await t.app.inject({
      method: 'PUT',
      url,
      headers: { ...a.manager.jar.headers(), 'content-type': 'application/json' },
      payload: `{"weekly":[],"exceptions":[],"pad":"${'x'.repeat(2_000_000)}"}`,
    });
    expect(huge.statusCode).toBe(413);
    // Hours for someone not on this organisation's staff.
    const b1 = await staffWithHours(everyDay, b);
    for (const userId of [a.parent.id, a.childId, b1, randomUUID()])
      expect(
        (await call(a.manager, 'PUT', `/api/schedule/staff-hours/${userId}`, everyDay)).statusCode,
      ).toBe(404);
    expect(
      (await call(a.manager, 'PUT', `/api/schedule/staff-hours/${staffId.toUpperCase()}`, everyDay))
        .statusCode,
    ).toBe(400);
    expect(
      (await call(a.manager, 'PUT', '/api/schedule/staff-hours/not-an-id', everyDay)).statusCode,
    ).toBe(400);
    // The hours stayed as saved.
    const [hours] = await t.db
      .select()
      .from(staffAvailability)
      .where(and(eq(staffAvailability.userId, staffId), eq(staffAvailability.orgId, a.org.id)));
    expect(hours?.weekly).toHaveLength(7);
    expect(
      await t.db
        .select()
        .from(staffAvailability)
        .where(and(eq(staffAvailability.userId, a.parent.id))),
    ).toEqual([]);
  });

  // Found broken by the adversarial review, fixed since: only the week's total (140) is bounded; one day takes any number of hours, and an exception over 20 fails availabilityDocSchema, so the staff member's hours vanish from every device's pull.
  it('refuses more than 20 opening hours on one day, which devices could not read', async () => {
    const staffId = await staffWithHours();
    const url = `/api/schedule/staff-hours/${staffId}`;
    const slices = Array.from({ length: 21 }, (_, i) => ({
      from: `${String(i).padStart(2, '0')}:00`,
      to: `${String(i).padStart(2, '0')}:30`,
    }));
    const oneDay = await call(a.manager, 'PUT', url, {
      weekly: slices.map((h) => ({ ...h, weekday: 'MO' })),
      exceptions: [],
    });
    expect.soft(oneDay.statusCode, '21 hours on Mondays').toBe(400);
    const exception = await call(a.manager, 'PUT', url, {
      weekly: [],
      exceptions: [{ day: '2027-05-05', hours: slices }],
    });
    expect.soft(exception.statusCode, '21 hours on a day that differs').toBe(400);
    // Whatever was saved, every member's device still reads every member of staff's hours.
    const docs = await pull(a.parent, 'availability');
    expect(docs.map((d) => d.userId)).toContain(staffId);
  });

  it('refuses types naming another organisation’s products, punch-card groups or staff, or ids in the wrong case', async () => {
    const staffId = await staffWithHours();
    const { groupId: theirGroup, productId: theirProduct } = await creditsFor(b.parent.id, 0, b);
    const body = { title: 'Sly', durationMinutes: 30, staffUserIds: [staffId] };
    const answers: Array<[object, number]> = [
      [{ ...body, entitlingProductIds: [theirProduct] }, 422],
      [{ ...body, punchCardGroupIds: [theirGroup] }, 422],
      [{ ...body, staffUserIds: [b.manager.id] }, 422],
      [{ ...body, staffUserIds: [a.parent.id] }, 422],
      [{ ...body, staffUserIds: [staffId.toUpperCase()] }, 400],
      [{ ...body, entitlingProductIds: [randomUUID().toUpperCase()] }, 400],
      [{ ...body, staffUserIds: Array.from({ length: 101 }, () => staffId) }, 400],
      [{ ...body, durationMinutes: 8 * 60 + 1 }, 400],
      [{ ...body, durationMinutes: 30.5 }, 400],
      [{ ...body, priceMinor: -1 }, 400],
      [{ ...body, bufferMinutes: -5 }, 400],
    ];
    for (const [payload, status] of answers) {
      const res = await call(a.manager, 'POST', '/api/schedule/appointment-types', payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(status);
    }
    expect(
      await t.db.select().from(appointmentTypes).where(eq(appointmentTypes.title, 'Sly')),
    ).toEqual([]);
    expect(
      (
        await call(
          a.manager,
          'PUT',
          `/api/schedule/appointment-types/${randomUUID().toUpperCase()}`,
          body,
        )
      ).statusCode,
    ).toBe(400);
  });
});
