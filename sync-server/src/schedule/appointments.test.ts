import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import {
  appointmentTypes,
  bookings,
  classOccurrences,
  organizations,
  products,
  punchCardCredits,
} from '@platform/schema/db';
import { bookingMessages } from '@platform/schema/bookings/booking.rules';
import { dayKeyOf, startOfDay } from '@platform/schema/time-tracking/org-calendar';
import {
  appointmentMessages,
  appointmentSlots,
  type AppointmentTypeDoc,
  type AppointmentTypeDraft,
  type AvailabilityInput,
} from '@platform/schema/schedule/appointments.zod';
import { addMembership, insertTestUser, logInAs } from '../testing/auth-fixtures.ts';
import {
  booking,
  pullAs,
  pulledAs,
  pushNewAs,
  seedSyncOrg,
  signedInCustomer,
  waitForVisibility,
  type Person,
} from '../testing/sync-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { busyTimesOf } from './appointments.repository.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

const everyDay: AvailabilityInput = {
  weekly: (['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const).map((weekday) => ({
    weekday,
    from: '08:00',
    to: '20:00',
  })),
  exceptions: [],
};

/**
 * Appointments (issue 16): staff set the types and their hours; a customer's device asks for a
 * slot, and the server books it once — one customer of twenty racing for it, never a slot that
 * overlaps another with its buffer, paid like a class place, freed when cancelled — for the
 * organisation's own people only.
 */
describe.each(testDatabaseKinds)('appointments on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;
  let b: Awaited<ReturnType<typeof seedSyncOrg>>;
  let personal: AppointmentTypeDoc;

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await seedSyncOrg(t.app, t.db);
    b = await seedSyncOrg(t.app, t.db);
    await t.db
      .update(organizations)
      .set({ attributes: { timezone: 'Europe/Berlin' } })
      .where(eq(organizations.id, a.org.id));
    expect(
      (await call(a.manager, 'PUT', `/api/schedule/staff-hours/${a.staff.id}`, everyDay))
        .statusCode,
    ).toBe(200);
    personal = await makeType({ title: 'Personal training' });
  });
  afterAll(async () => t?.close());

  const call = (
    who: Person | null,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) =>
    t.app.inject({
      method,
      url,
      headers: who?.jar.headers() ?? {},
      ...(payload ? { payload } : {}),
    });

  async function makeType(over: Partial<AppointmentTypeDraft> = {}): Promise<AppointmentTypeDoc> {
    const res = await call(a.manager, 'POST', '/api/schedule/appointment-types', {
      title: 'Session',
      durationMinutes: 60,
      bufferMinutes: 15,
      staffUserIds: [a.staff.id],
      ...over,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }

  /** Free starts with the staff member, as a device computes them from the replica. */
  async function freeStarts(type: AppointmentTypeDoc, staffUserId = a.staff.id) {
    const now = Date.now();
    // From the morning of a day ahead (the organisation's zone), whatever the time now: the
    // tests ask an hour or more after the first free start.
    const window = {
      from: startOfDay(dayKeyOf(now + 3 * 86_400_000, 'Europe/Berlin'), 'Europe/Berlin'),
      to: now + 9 * 86_400_000,
    };
    const busy = await busyTimesOf(t.db, staffUserId, {
      from: new Date(window.from),
      to: new Date(window.to),
    });
    return appointmentSlots({
      type,
      hours: everyDay,
      busy,
      window,
      notBefore: now,
    }).map((slot) => slot.from);
  }

  const ask = (who: Person, type: AppointmentTypeDoc, startsAt: number, over: object = {}) =>
    booking(a.org.id, who.id, {
      occurrenceId: randomUUID(),
      appointment: {
        typeId: type.id,
        staffUserId: a.staff.id,
        startsAt: new Date(startsAt).toISOString(),
      },
      ...over,
    });
  const pushNew = (who: Person, docs: object[]) => pushNewAs(t, who, 'bookings', docs);
  const stored = async (id: string) =>
    (await t.db.select().from(bookings).where(eq(bookings.id, id)))[0];
  const pulled = (who: Person, id: string) => pulledAs(t, who, 'bookings', id);
  const customer = () => signedInCustomer(t.app, t.db, a.org.id);

  it('books a slot for exactly one of 20 customers asking for it at once', async () => {
    const [slot] = await freeStarts(personal);
    const people = await Promise.all(Array.from({ length: 20 }, () => customer()));
    const asks = people.map((who) => ask(who, personal, slot!));
    const answers = await Promise.all(asks.map((doc, i) => pushNew(people[i]!, [doc])));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    const verdicts = await Promise.all(asks.map((doc) => stored(doc.id)));
    const booked = verdicts.filter((v) => v?.status === 'booked');
    expect(booked).toHaveLength(1);
    expect(verdicts.filter((v) => v?.status === 'refused')).toHaveLength(19);
    expect(
      verdicts.every((v) => v?.status === 'booked' || v?.refusal === appointmentMessages.slotTaken),
    ).toBe(true);
    // The appointment is a class time of its own: the device's id, one place, taken.
    const [made] = await t.db
      .select()
      .from(classOccurrences)
      .where(eq(classOccurrences.id, booked[0]!.occurrenceId));
    expect(made).toMatchObject({
      kind: 'appointment',
      appointmentTypeId: personal.id,
      classId: null,
      coachUserId: a.staff.id,
      capacity: 1,
      bookedCount: 1,
      startsAt: new Date(slot!),
      endsAt: new Date(slot! + 60 * 60_000),
      title: 'Personal training',
    });
  });

  it('never books a slot overlapping another appointment with its buffer, nor a class the staff member leads', async () => {
    const type = await makeType({ title: 'Check-up', durationMinutes: 30, bufferMinutes: 30 });
    // A start whose hour after is free too: earlier tests booked this staff member at slots
    // that, as the clock moves on between tests, can fall an hour after the first free one.
    const starts = await freeStarts(type);
    const first = starts.find((start) => starts.includes(start + 60 * 60_000));
    const one = await customer();
    const two = await customer();
    const held = ask(one, type, first!);
    await pushNew(one, [held]);
    expect((await stored(held.id))?.status).toBe('booked');
    // 45 minutes later: the 30-minute buffer after a 30-minute appointment is not over.
    const tooSoon = ask(two, type, first! + 45 * 60_000);
    // An hour later: clear.
    const clear = ask(two, type, first! + 60 * 60_000);
    await pushNew(two, [tooSoon, clear]);
    expect(await stored(tooSoon.id)).toMatchObject({
      status: 'refused',
      refusal: appointmentMessages.slotTaken,
    });
    expect((await stored(clear.id))?.status).toBe('booked');
    // Not in the hours (03:00 the organisation's time), and not on the quarter-hours offered.
    const night = ask(two, type, first! - 8 * 3_600_000 + 7 * 60_000);
    await pushNew(two, [night]);
    expect((await stored(night.id))?.refusal).toBe(appointmentMessages.slotTaken);
    // A class the staff member leads makes them busy too.
    const later = first! + 5 * 3_600_000;
    await t.db.insert(classOccurrences).values({
      orgId: a.org.id,
      classId: null,
      appointmentTypeId: type.id,
      ruleDay: '2030-01-01',
      kind: 'appointment',
      title: 'Desk duty',
      coachUserId: a.staff.id,
      startsAt: new Date(later),
      endsAt: new Date(later + 3_600_000),
      capacity: 1,
      cancelBy: new Date(later),
    });
    const clash = ask(two, type, later + 30 * 60_000);
    await pushNew(two, [clash]);
    expect((await stored(clash.id))?.refusal).toBe(appointmentMessages.slotTaken);
  });

  it('refuses a type not offered, a staff member who does not give it, a past start and a second ask of one id', async () => {
    const [slot] = await freeStarts(personal);
    const who = await customer();
    const gone = await makeType({ title: 'Retired' });
    expect(
      (await call(a.manager, 'DELETE', `/api/schedule/appointment-types/${gone.id}`)).statusCode,
    ).toBe(204);
    const cases = [
      [ask(who, gone, slot!), appointmentMessages.typeGone],
      [
        booking(a.org.id, who.id, {
          occurrenceId: randomUUID(),
          appointment: {
            typeId: personal.id,
            staffUserId: a.manager.id,
            startsAt: new Date(slot!).toISOString(),
          },
        }),
        appointmentMessages.staffGone,
      ],
      [ask(who, personal, Date.now() - 3_600_000), bookingMessages.classStarted],
    ] as const;
    for (const [doc, refusal] of cases) {
      await pushNew(who, [doc]);
      expect(await stored(doc.id)).toMatchObject({ status: 'refused', refusal });
    }
    // Asking under a class time's id that exists (another appointment's) books nothing there.
    const [taken] = await t.db
      .select({ id: classOccurrences.id })
      .from(classOccurrences)
      .where(eq(classOccurrences.kind, 'appointment'))
      .limit(1);
    const reuse = ask(who, personal, (await freeStarts(personal))[3]!, { occurrenceId: taken!.id });
    await pushNew(who, [reuse]);
    expect((await stored(reuse.id))?.status).toBe('refused');
    // Moving an asked appointment to another time is refused: cancel and ask again.
    const mine = ask(who, personal, (await freeStarts(personal))[8]!);
    await pushNew(who, [mine]);
    const master = await pulled(who, mine.id);
    const moved = await t.app.inject({
      method: 'POST',
      url: '/api/sync/bookings/push',
      headers: who.jar.headers(),
      payload: [
        {
          assumedMasterState: master,
          newDocumentState: {
            ...master,
            updatedAt: new Date().toISOString(),
            appointment: {
              ...(master.appointment as object),
              startsAt: new Date(slot! + 86_400_000).toISOString(),
            },
          },
        },
      ],
    });
    expect(moved.statusCode).toBe(422);
    expect(moved.json().errors[0].message).toBe(bookingMessages.cannotMove);
  });

  it('uses a punch-card credit, gives it back on cancelling in time, and frees the slot', async () => {
    const groupId = randomUUID();
    const [pack] = await t.db
      .insert(products)
      .values({
        orgId: a.org.id,
        name: 'PT pack',
        type: 'one-time',
        schedule: 'one-time',
        priceMinor: 20_000,
        processorProductId: `prod_sandbox_${groupId}`,
        punchCardConfiguration: { groups: [{ id: groupId, name: 'PT', credits: 1 }] },
      })
      .returning();
    const type = await makeType({ title: 'PT', priceMinor: 6_000, punchCardGroupIds: [groupId] });
    const who = await customer();
    await t.db.insert(punchCardCredits).values({
      orgId: a.org.id,
      customerUserId: who.id,
      productId: pack!.id,
      productName: 'PT pack',
      groupId,
      groupName: 'PT',
      delta: 1,
      reason: 'import',
    });
    const balance = async () =>
      Number(
        (
          await t.db
            .select({ sum: sql<string>`coalesce(sum(${punchCardCredits.delta}), 0)` })
            .from(punchCardCredits)
            .where(eq(punchCardCredits.customerUserId, who.id))
        )[0]!.sum,
      );
    const starts = await freeStarts(type);
    const slot = starts[starts.length - 1]!;
    const mine = ask(who, type, slot);
    await pushNew(who, [mine]);
    expect(await stored(mine.id)).toMatchObject({ status: 'booked', paidWith: 'credit' });
    expect(await balance()).toBe(0);
    // A second appointment: nothing left to pay with, and a price — paid at booking.
    const second = ask(who, type, starts[0]!);
    await pushNew(who, [second]);
    expect(await stored(second.id)).toMatchObject({
      status: 'refused',
      refusal: bookingMessages.payAtBooking,
    });
    // Staff book it for them at the desk.
    const desk = ask(who, type, starts[0]!);
    await pushNew(a.manager, [desk]);
    expect(await stored(desk.id)).toMatchObject({ status: 'booked', paidWith: 'desk' });

    const master = await pulled(who, mine.id);
    const cancel = await t.app.inject({
      method: 'POST',
      url: '/api/sync/bookings/push',
      headers: who.jar.headers(),
      payload: [
        {
          assumedMasterState: master,
          newDocumentState: { ...master, status: 'cancelled', updatedAt: new Date().toISOString() },
        },
      ],
    });
    expect(cancel.json()).toEqual([]);
    expect(await balance()).toBe(1);
    const [time] = await t.db
      .select()
      .from(classOccurrences)
      .where(eq(classOccurrences.id, mine.occurrenceId));
    expect(time).toMatchObject({ status: 'cancelled', bookedCount: 0 });
    // The slot is free again: someone else books it.
    const other = await customer();
    const again = ask(other, { ...type, punchCardGroupIds: [] }, slot);
    await pushNew(a.manager, [{ ...again, customerUserId: other.id }]);
    expect((await stored(again.id))?.status).toBe('booked');
  });

  it('keeps appointment types and hours to staff with manage-schedule of the organisation', async () => {
    const body = { title: 'Nope', durationMinutes: 30, staffUserIds: [a.staff.id] };
    for (const who of [a.staff, a.parent]) {
      expect((await call(who, 'POST', '/api/schedule/appointment-types', body)).statusCode).toBe(
        403,
      );
      expect((await call(who, 'GET', '/api/schedule/staff-hours')).statusCode).toBe(403);
      expect(
        (await call(who, 'PUT', `/api/schedule/staff-hours/${a.staff.id}`, everyDay)).statusCode,
      ).toBe(403);
      expect(
        (await call(who, 'DELETE', `/api/schedule/appointment-types/${personal.id}`)).statusCode,
      ).toBe(403);
    }
    expect((await call(null, 'GET', '/api/schedule/staff-hours')).statusCode).toBe(401);
    // Another organisation's manager: A's type, A's staff are not found there.
    expect(
      (await call(b.manager, 'PUT', `/api/schedule/appointment-types/${personal.id}`, body))
        .statusCode,
    ).toBe(404);
    expect(
      (await call(b.manager, 'DELETE', `/api/schedule/appointment-types/${personal.id}`))
        .statusCode,
    ).toBe(404);
    expect(
      (await call(b.manager, 'PUT', `/api/schedule/staff-hours/${a.staff.id}`, everyDay))
        .statusCode,
    ).toBe(404);
    const foreign = await call(b.manager, 'POST', '/api/schedule/appointment-types', body);
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().message).toBe(appointmentMessages.staffUnknown);
    const listed = (await call(b.manager, 'GET', '/api/schedule/staff-hours')).json();
    expect(listed.staff.map((s: { userId: string }) => s.userId)).not.toContain(a.staff.id);
    // A customer of B cannot book A's type: it is not offered in B.
    const slot = (await freeStarts(personal))[5]!;
    const sly = booking(b.org.id, b.parent.id, {
      occurrenceId: randomUUID(),
      appointment: {
        typeId: personal.id,
        staffUserId: a.staff.id,
        startsAt: new Date(slot).toISOString(),
      },
    });
    await pushNew(b.parent, [sly]);
    expect(await stored(sly.id)).toMatchObject({
      status: 'refused',
      refusal: appointmentMessages.typeGone,
    });
    // Bad input is answered in words, never a 500.
    for (const bad of [
      { ...body, durationMinutes: 0 },
      { ...body, bufferMinutes: 999 },
      { ...body, staffUserIds: [] },
      { ...body, title: '' },
      { ...body, staffUserIds: ['nobody'] },
    ])
      expect(
        (await call(a.manager, 'POST', '/api/schedule/appointment-types', bad)).statusCode,
      ).toBe(400);
    const badHours = await call(a.manager, 'PUT', `/api/schedule/staff-hours/${a.staff.id}`, {
      weekly: [{ weekday: 'MO', from: '18:00', to: '09:00' }],
      exceptions: [],
    });
    expect(badHours.statusCode).toBe(400);
    // The Jobber platform has no appointments.
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
    const lawn = await t.app.inject({
      method: 'POST',
      url: '/api/schedule/appointment-types',
      headers: jar.headers(),
      payload: { ...body, staffUserIds: [owner.id] },
    });
    expect(lawn.statusCode).toBe(403);
    expect(
      await t.db.select().from(appointmentTypes).where(eq(appointmentTypes.orgId, jobber!.id)),
    ).toEqual([]);
  });

  it('replicates types and hours to the organisation’s members only, read-only', async () => {
    await waitForVisibility(t.db);
    const pull = async (who: Person, collection: string) => {
      const res = await pullAs(t, who, collection, '?batchSize=1000');
      expect(res.statusCode).toBe(200);
      return (res.json() as { documents: Array<{ id: string; orgId: string }> }).documents;
    };
    const types = await pull(a.parent, 'appointment-types');
    expect(types.map((d) => d.id)).toContain(personal.id);
    expect((await pull(a.parent, 'availability')).map((d) => d.orgId)).toEqual([a.org.id]);
    expect((await pull(b.parent, 'appointment-types')).map((d) => d.id)).not.toContain(personal.id);
    expect(await pull(b.manager, 'availability')).toEqual([]);
    const tamper = await t.app.inject({
      method: 'POST',
      url: '/api/sync/appointment-types/push',
      headers: a.manager.jar.headers(),
      payload: [
        {
          assumedMasterState: types.find((d) => d.id === personal.id),
          newDocumentState: { ...types.find((d) => d.id === personal.id), priceMinor: 0 },
        },
      ],
    });
    expect(tamper.statusCode).toBeGreaterThanOrEqual(400);
    expect(tamper.statusCode).toBeLessThan(500);
  });
});
