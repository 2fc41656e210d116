import { randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  bookingPayments,
  bookings,
  classOccurrences,
  organizations,
  paymentMethods,
  sandboxCharges,
  sandboxRefunds,
  scheduleClasses,
} from '@platform/schema/db';
import { z } from 'zod';
import {
  bookingPayMessages,
  bookingPaymentDocSchema,
  type BookingPaymentDoc,
} from '@platform/schema/bookings/booking-pay.zod';
import { KIOSK_REQUEST_HEADER } from '@platform/schema/kiosk/kiosk.zod';
import { bookingMessages } from '@platform/schema/bookings/booking.rules';
import {
  appointmentSlots,
  type AppointmentTypeDoc,
  type AppointmentTypeDraft,
  type AvailabilityInput,
} from '@platform/schema/schedule/appointments.zod';
import { asKiosk, startTestKiosk } from '../kiosk/kiosk.fixtures.ts';
import { queueBookingRefunds, refundBookingPayment } from '../payments/booking-payments.service.ts';
import { chargeMessages } from '../payments/charge.service.ts';
import { addMembership, insertTestUser, linkChild, logInAs } from '../testing/auth-fixtures.ts';
import { drainJobs } from '../testing/job-fixtures.ts';
import { insertOccurrence } from '../testing/schedule-fixtures.ts';
import {
  booking,
  pulledAs,
  pushAs,
  pushChangeAs,
  pushNewAs,
  seedSyncOrg,
  signedInCustomer,
  waitForVisibility,
  type Person,
} from '../testing/sync-fixtures.ts';
import { changeOf, openSse } from '../testing/sse-client.ts';
import { payCards, payOrder } from '../testing/booking-pay-fixtures.ts';
import { createTestApp, listenOnLoopback } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

/**
 * Attacks on pay at booking (decision 0070): POST /api/bookings/pay, then the booking request
 * pushed under the same booking id, the decision using the payment, and refunds by job and
 * sweep. Each test asserts the SAFE behaviour, so it fails while the hole exists. Tests marked
 * `Was BROKEN` document a hole this review found, fixed in the same change (they failed before).
 */

const { visa, declining } = payCards;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ZONE = 'Europe/Berlin';

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

describe.each(testDatabaseKinds)('attacks on pay at booking (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Org;
  let b: Org;

  beforeAll(async () => {
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

  // Each call from an address of its own: the per-address card limit (40 an hour) must not
  // couple the attacks.
  const address = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  const customer = (org: Org = a) => signedInCustomer(t.app, t.db, org.org.id);
  const pay = (who: Person | null, body: Record<string, unknown>, orgId = a.org.id) =>
    t.app.inject({
      method: 'POST',
      url: '/api/bookings/pay',
      headers: who?.jar.headers() ?? {},
      remoteAddress: address(),
      payload: { orgId, ...body },
    });
  const options = (who: Person | null, orgId = a.org.id) =>
    t.app.inject({
      method: 'POST',
      url: '/api/bookings/pay/options',
      headers: who?.jar.headers() ?? {},
      remoteAddress: address(),
      payload: { orgId },
    });
  const order = payOrder;
  const push = (who: Person, rows: unknown) => pushAs(t, who, 'bookings', rows);
  const request = (who: Person, doc: object) => pushNewAs(t, who, 'bookings', [doc]);
  const change = (who: Person, master: Doc, next: Record<string, unknown>) =>
    pushChangeAs(t, who, 'bookings', master, next);
  /** A booking request made just now (no "refused offline" notice queued). */
  const fresh = (orgId: string, customerUserId: string, over: Record<string, unknown> = {}) => {
    const at = new Date().toISOString();
    return booking(orgId, customerUserId, { requestedAt: at, updatedAt: at, ...over });
  };
  const stored = async (id: string) =>
    (await t.db.select().from(bookings).where(eq(bookings.id, id)))[0];
  const paymentsOf = (bookingId: string) =>
    t.db.select().from(bookingPayments).where(eq(bookingPayments.bookingId, bookingId));
  const chargesFor = async (bookingId: string) => {
    const ids = (await paymentsOf(bookingId)).map((p) => p.id);
    const all = await t.db.select().from(sandboxCharges);
    return all.filter((c) =>
      ids.some((id) => c.idempotencyKey.startsWith(`booking-payment:${id}:`)),
    );
  };
  const succeeded = async (bookingId: string) =>
    (await chargesFor(bookingId)).filter((c) => c.outcome === 'succeeded');
  const refundsFor = async (bookingId: string) => {
    const charges = await chargesFor(bookingId);
    if (charges.length === 0) return [];
    return t.db
      .select()
      .from(sandboxRefunds)
      .where(
        inArray(
          sandboxRefunds.chargeId,
          charges.map((c) => c.id),
        ),
      );
  };
  /** Money kept for a booking: succeeded charges less refunds. */
  const kept = async (bookingId: string) =>
    (await succeeded(bookingId)).reduce((sum, c) => sum + c.amountMinor, 0) -
    (await refundsFor(bookingId)).reduce((sum, r) => sum + r.amountMinor, 0);
  const pulled = async (who: Person, id: string) => (await pulledAs(t, who, 'bookings', id)) as Doc;
  const bookedCount = async (occurrenceId: string) =>
    (
      await t.db
        .select({ n: classOccurrences.bookedCount })
        .from(classOccurrences)
        .where(eq(classOccurrences.id, occurrenceId))
    )[0]?.n;
  const setPrice = (classId: string, priceMinor: number) =>
    t.db.update(scheduleClasses).set({ priceMinor }).where(eq(scheduleClasses.id, classId));

  async function staffWithHours(org: Org = a) {
    const user = await insertTestUser(t.db);
    await addMembership(t.db, user.id, org.org.id, 'staff', []);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/schedule/staff-hours/${user.id}`,
      headers: org.manager.jar.headers(),
      payload: everyDay,
    });
    expect(res.statusCode, res.body).toBe(200);
    return user.id;
  }
  async function makeType(
    staffUserIds: string[],
    over: Partial<AppointmentTypeDraft> = {},
    org: Org = a,
  ): Promise<AppointmentTypeDoc> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/schedule/appointment-types',
      headers: org.manager.jar.headers(),
      payload: { title: 'Session', durationMinutes: 60, bufferMinutes: 0, staffUserIds, ...over },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }
  async function freeStarts(type: AppointmentTypeDoc, staffUserId: string) {
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
      hours: everyDay,
      busy: busy.map((r) => ({ from: r.from.getTime(), to: r.to.getTime() })),
      window: { from: now + 2 * DAY, to: now + 9 * DAY },
      notBefore: now,
    }).map((slot) => slot.from);
  }

  // ---------------------------------------------------------------------------------------
  // Paying less than the place costs
  // ---------------------------------------------------------------------------------------

  // Was BROKEN (fixed in the same change): usePaymentFor (payments/booking-payments.service.ts) checks the person and the
  // class time only, never the amount: a price raised after paying still books on the old one.
  it('does not book a place on a payment smaller than its price when the request arrives', async () => {
    const { series, occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 500 });
    const me = await customer();
    const doc = fresh(a.org.id, me.id, { occurrenceId: occurrence.id });
    expect(
      (await pay(me, { ...order(doc.id, me.id, occurrence.id), card: visa })).json(),
    ).toMatchObject({ paid: true, amountMinor: 500 });
    await setPrice(series.id, 5_000);
    await request(me, doc);
    const after = await stored(doc.id);
    const paid =
      after?.status === 'booked' && after.paidWith === 'card' ? await kept(doc.id) : 5_000;
    expect(paid, 'booked for 5,000 on a 500 payment').toBeGreaterThanOrEqual(5_000);
  });

  // Was BROKEN (fixed in the same change): a declined checkout never expires (the sweep only looks at `paid`), and a retry
  // charges the amount frozen in the row (chargeBookingPayment ignores order.amountMinor for an
  // existing row): decline once while cheap, pay after a price rise at the old price.
  it('charges the price of now when a declined checkout is paid again later', async () => {
    const { series, occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 500 });
    const me = await customer();
    const doc = fresh(a.org.id, me.id, { occurrenceId: occurrence.id });
    const body = order(doc.id, me.id, occurrence.id);
    expect((await pay(me, { ...body, card: declining })).json()).toMatchObject({ paid: false });
    await setPrice(series.id, 5_000);
    const retried = await pay(me, { ...body, card: visa });
    const charged = (await succeeded(doc.id)).map((c) => c.amountMinor);
    if (retried.statusCode === 200 && retried.json().paid) expect(charged).toEqual([5_000]);
    else expect(charged).toEqual([]);
  });

  it('does not use a payment for a cheap class on an expensive one named under the same booking id', async () => {
    const cheap = await insertOccurrence(t.db, a.org.id, { priceMinor: 100 });
    const dear = await insertOccurrence(t.db, a.org.id, { priceMinor: 9_000 });
    const me = await customer();
    const doc = fresh(a.org.id, me.id, { occurrenceId: dear.occurrence.id });
    await pay(me, { ...order(doc.id, me.id, cheap.occurrence.id), card: visa });
    await request(me, doc);
    expect(await stored(doc.id)).toMatchObject({
      status: 'refused',
      refusal: bookingMessages.payAtBooking,
    });
    expect(await bookedCount(dear.occurrence.id)).toBe(0);
    await drainJobs(t.app);
    expect(await paymentsOf(doc.id)).toMatchObject([{ status: 'refunded' }]);
    expect(await kept(doc.id)).toBe(0);
  });

  it('does not use a payment made for one person on another person’s place', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 800 });
    // The guardian pays for the child's place, then names themself in the request.
    const doc = fresh(a.org.id, a.parent.id, { occurrenceId: occurrence.id });
    await pay(a.parent, { ...order(doc.id, a.childId, occurrence.id), card: visa });
    await request(a.parent, doc);
    expect(await stored(doc.id)).toMatchObject({ status: 'refused' });
    await drainJobs(t.app);
    expect(await kept(doc.id)).toBe(0);
  });

  // Was BROKEN (fixed in the same change): placeToPayFor (bookings.repository.ts) ignores occurrenceId when an appointment is
  // named, and the payment row keeps only occurrenceId: pay the cheapest priced appointment
  // type's price naming an existing class time's id, then request that class time.
  it('does not book a class time on a payment made for an appointment type', async () => {
    const staffId = await staffWithHours();
    const cheapType = await makeType([staffId], { priceMinor: 100 });
    const [slot] = await freeStarts(cheapType, staffId);
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 9_000 });
    const me = await customer();
    const doc = fresh(a.org.id, me.id, { occurrenceId: occurrence.id });
    const paid = await pay(me, {
      ...order(doc.id, me.id, occurrence.id),
      appointment: {
        typeId: cheapType.id,
        staffUserId: staffId,
        startsAt: new Date(slot!).toISOString(),
      },
      card: visa,
    });
    // Refused at paying now (an appointment names a new class time); were it paid, the
    // booking below must still not take the class on it.
    expect([200, 422]).toContain(paid.statusCode);
    if (paid.statusCode === 422) expect(paid.json().message).toBe(bookingMessages.noSuchClass);
    await request(me, doc);
    const after = await stored(doc.id);
    expect(
      after?.status === 'booked' ? await kept(doc.id) : 9_000,
      'a 9,000 class booked for 100',
    ).toBeGreaterThanOrEqual(9_000);
  });

  // Was BROKEN (fixed in the same change): the same hole for appointments themselves: the payment does not remember the type,
  // so a cheap type paid for books an expensive type under the same booking and time ids.
  it('does not book an expensive appointment type on a payment for a cheap one', async () => {
    const staffId = await staffWithHours();
    const cheapType = await makeType([staffId], { priceMinor: 100, title: 'Short' });
    const dearType = await makeType([staffId], { priceMinor: 9_000, title: 'Long' });
    const [slot] = await freeStarts(dearType, staffId);
    const startsAt = new Date(slot!).toISOString();
    const me = await customer();
    const timeId = randomUUID();
    const doc = fresh(a.org.id, me.id, {
      occurrenceId: timeId,
      appointment: { typeId: dearType.id, staffUserId: staffId, startsAt },
    });
    const paid = await pay(me, {
      ...order(doc.id, me.id, timeId),
      appointment: { typeId: cheapType.id, staffUserId: staffId, startsAt },
      card: visa,
    });
    expect(paid.json()).toMatchObject({ paid: true, amountMinor: 100 });
    await request(me, doc);
    const after = await stored(doc.id);
    expect(
      after?.status === 'booked' ? await kept(doc.id) : 9_000,
      'a 9,000 appointment booked for 100',
    ).toBeGreaterThanOrEqual(9_000);
  });

  it('books an appointment paid for with its own type, and refunds one whose slot is gone', async () => {
    const staffId = await staffWithHours();
    const type = await makeType([staffId], { priceMinor: 3_000 });
    const [slot] = await freeStarts(type, staffId);
    const startsAt = new Date(slot!).toISOString();
    const [me, rival] = [await customer(), await customer()];
    const appointment = { typeId: type.id, staffUserId: staffId, startsAt };
    const mine = fresh(a.org.id, me.id, { occurrenceId: randomUUID(), appointment });
    const theirs = fresh(a.org.id, rival.id, { occurrenceId: randomUUID(), appointment });
    await pay(me, {
      ...order(mine.id, me.id, mine.occurrenceId as string),
      appointment,
      card: visa,
    });
    await pay(rival, {
      ...order(theirs.id, rival.id, theirs.occurrenceId as string),
      appointment,
      card: visa,
    });
    await request(me, mine);
    await request(rival, theirs);
    expect(await stored(mine.id)).toMatchObject({ status: 'booked', paidWith: 'card' });
    expect(await stored(theirs.id)).toMatchObject({ status: 'refused' });
    await drainJobs(t.app);
    expect(await kept(mine.id)).toBe(3_000);
    expect(await kept(theirs.id)).toBe(0);
  });

  it('does not let a payment of one organisation pay for a place in another', async () => {
    // A customer of both: pays in B (an appointment type of B, naming A's class time), books in A.
    const staffId = await staffWithHours(b);
    const typeB = await makeType([staffId], { priceMinor: 100 }, b);
    const [slot] = await freeStarts(typeB, staffId);
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 4_000 });
    const me = await customer(a);
    await addMembership(t.db, me.id, b.org.id, 'customer');
    const inB = (
      await logInAs(t.app, me.email, { profileType: 'use-customer', profileOrgId: b.org.id })
    ).jar;
    const doc = fresh(a.org.id, me.id, { occurrenceId: occurrence.id });
    const paid = await pay(
      { ...me, jar: inB },
      {
        ...order(doc.id, me.id, occurrence.id),
        appointment: {
          typeId: typeB.id,
          staffUserId: staffId,
          startsAt: new Date(slot!).toISOString(),
        },
        card: visa,
      },
      b.org.id,
    );
    expect([200, 422]).toContain(paid.statusCode);
    await request(me, doc);
    expect(await stored(doc.id)).toMatchObject({
      status: 'refused',
      refusal: bookingMessages.payAtBooking,
    });
  });

  // ---------------------------------------------------------------------------------------
  // One payment, two places
  // ---------------------------------------------------------------------------------------

  it('does not book again with a payment given back: cancel in time, then ask again', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 1_200 });
    const me = await customer();
    const doc = fresh(a.org.id, me.id, { occurrenceId: occurrence.id });
    await pay(me, { ...order(doc.id, me.id, occurrence.id), card: visa });
    await request(me, doc);
    const master = await pulled(me, doc.id);
    expect((await change(me, master, { status: 'cancelled' })).json()).toEqual([]);
    // Asked again before the refund job has even run.
    const cancelled = await pulled(me, doc.id);
    expect((await change(me, cancelled, { status: 'requested' })).statusCode).toBe(200);
    expect(await stored(doc.id)).toMatchObject({
      status: 'refused',
      refusal: bookingPayMessages.paymentReturned,
    });
    await drainJobs(t.app);
    expect(await kept(doc.id)).toBe(0);
    expect(await refundsFor(doc.id)).toHaveLength(1);
    expect(await bookedCount(occurrence.id)).toBe(0);
  });

  it('does not book with a payment refused as full once a place frees up', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, {
      priceMinor: 1_000,
      capacity: 1,
    });
    const [first, second] = [await customer(), await customer()];
    const mine = fresh(a.org.id, first.id, { occurrenceId: occurrence.id });
    const theirs = fresh(a.org.id, second.id, { occurrenceId: occurrence.id });
    await pay(first, { ...order(mine.id, first.id, occurrence.id), card: visa });
    await pay(second, { ...order(theirs.id, second.id, occurrence.id), card: visa });
    await request(first, mine);
    await request(second, theirs);
    expect(await stored(theirs.id)).toMatchObject({ status: 'refused' });
    // The first gives the place up (in time); the second asks again with the same id.
    expect(
      (await change(first, await pulled(first, mine.id), { status: 'cancelled' })).json(),
    ).toEqual([]);
    await change(second, await pulled(second, theirs.id), { status: 'requested' });
    expect(await stored(theirs.id)).toMatchObject({ status: 'refused' });
    await drainJobs(t.app);
    expect(await kept(mine.id)).toBe(0);
    expect(await kept(theirs.id)).toBe(0);
    expect(await bookedCount(occurrence.id)).toBe(0);
  });

  it('decides a booking pushed by two devices at once once, with one payment used once', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 700 });
    const me = await customer();
    const doc = fresh(a.org.id, me.id, { occurrenceId: occurrence.id });
    await pay(me, { ...order(doc.id, me.id, occurrence.id), card: visa });
    const answers = await Promise.all([request(me, doc), request(me, doc), request(me, doc)]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(await stored(doc.id)).toMatchObject({ status: 'booked', paidWith: 'card' });
    expect(await bookedCount(occurrence.id)).toBe(1);
    expect(await paymentsOf(doc.id)).toMatchObject([{ status: 'used' }]);
    expect(await kept(doc.id)).toBe(700);
  });

  it('pays for one place only when one push carries the paid request and an unpaid one', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 600 });
    const me = await customer();
    const paidDoc = fresh(a.org.id, me.id, { occurrenceId: occurrence.id });
    const unpaid = fresh(a.org.id, me.id, { occurrenceId: occurrence.id });
    await pay(me, { ...order(paidDoc.id, me.id, occurrence.id), card: visa });
    await push(me, [
      { assumedMasterState: null, newDocumentState: unpaid },
      { assumedMasterState: null, newDocumentState: paidDoc },
    ]);
    expect(await stored(paidDoc.id)).toMatchObject({ status: 'booked', paidWith: 'card' });
    expect(await stored(unpaid.id)).toMatchObject({ status: 'refused' });
    expect(await bookedCount(occurrence.id)).toBe(1);
    await drainJobs(t.app);
    expect(await kept(paidDoc.id)).toBe(600);
  });

  // ---------------------------------------------------------------------------------------
  // Refunded and still holding the place; refunds twice
  // ---------------------------------------------------------------------------------------

  it('refuses a cancellation after the cut-off, and keeps the money', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 1_500 });
    const me = await customer();
    const doc = fresh(a.org.id, me.id, { occurrenceId: occurrence.id });
    await pay(me, { ...order(doc.id, me.id, occurrence.id), card: visa });
    await request(me, doc);
    // The cut-off passed an hour ago; the class starts in an hour.
    const now = Date.now();
    await t.db
      .update(classOccurrences)
      .set({
        startsAt: new Date(now + HOUR),
        endsAt: new Date(now + 2 * HOUR),
        cancelBy: new Date(now - HOUR),
      })
      .where(eq(classOccurrences.id, occurrence.id));
    await t.db
      .update(bookings)
      .set({ decidedAt: new Date(now - 30 * 60_000) })
      .where(eq(bookings.id, doc.id));
    const master = await pulled(me, doc.id);
    const late = await change(me, master, { status: 'cancelled' });
    expect(late.statusCode).toBe(422);
    // Stamped before the booking was decided: no better.
    const early = await change(me, master, {
      status: 'cancelled',
      updatedAt: new Date(now - 2 * HOUR).toISOString(),
    });
    expect(early.statusCode).toBe(422);
    await drainJobs(t.app);
    expect(await stored(doc.id)).toMatchObject({ status: 'booked' });
    expect(await paymentsOf(doc.id)).toMatchObject([{ status: 'used' }]);
    expect(await kept(doc.id)).toBe(1_500);
  });

  it('refunds once when a cancelled place’s class is cancelled too, and the job runs again', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 1_300 });
    const me = await customer();
    const doc = fresh(a.org.id, me.id, { occurrenceId: occurrence.id });
    await pay(me, { ...order(doc.id, me.id, occurrence.id), card: visa });
    await request(me, doc);
    await change(me, await pulled(me, doc.id), { status: 'cancelled' });
    const [payment] = await paymentsOf(doc.id);
    // Owed back (its job may already have run).
    expect(['refund-due', 'refunded']).toContain(payment?.status);
    // The job, a retry of it and the sweep all at once, and the class cancelled meanwhile.
    const deps = { db: t.db, processor: t.app.paymentProcessor };
    await Promise.all([
      refundBookingPayment(deps, payment!.id),
      refundBookingPayment(deps, payment!.id),
      queueBookingRefunds(t.db, t.app.jobs, { processor: t.app.paymentProcessor }),
      t.app.inject({
        method: 'PATCH',
        url: `/api/schedule/occurrences/${occurrence.id}`,
        headers: a.manager.jar.headers(),
        payload: { cancelled: true },
      }),
    ]);
    await drainJobs(t.app);
    await queueBookingRefunds(t.db, t.app.jobs, { processor: t.app.paymentProcessor });
    await drainJobs(t.app);
    expect(await refundsFor(doc.id)).toHaveLength(1);
    expect(await kept(doc.id)).toBe(0);
    expect(await paymentsOf(doc.id)).toMatchObject([{ status: 'refunded' }]);
  });

  it('never lets the sweep give back a payment a booking used, however old', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, {
      priceMinor: 900,
      startsAt: new Date(Date.now() + 5 * DAY),
    });
    const me = await customer();
    const doc = fresh(a.org.id, me.id, { occurrenceId: occurrence.id });
    await pay(me, { ...order(doc.id, me.id, occurrence.id), card: visa });
    await request(me, doc);
    await t.db
      .update(bookingPayments)
      .set({ paidAt: new Date(Date.now() - 3 * DAY) })
      .where(eq(bookingPayments.bookingId, doc.id));
    await queueBookingRefunds(t.db, t.app.jobs, {
      processor: t.app.paymentProcessor,
      now: new Date(Date.now() + 2 * DAY),
    });
    await drainJobs(t.app);
    expect(await paymentsOf(doc.id)).toMatchObject([{ status: 'used' }]);
    expect(await kept(doc.id)).toBe(900);
    expect(await stored(doc.id)).toMatchObject({ status: 'booked', paidWith: 'card' });
  });

  it('does not give back a place’s payment when a request of the same id is refused later', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 1_100 });
    const me = await customer();
    const doc = fresh(a.org.id, me.id, { occurrenceId: occurrence.id });
    await pay(me, { ...order(doc.id, me.id, occurrence.id), card: visa });
    await request(me, doc);
    // The same request again, from a device that never heard back: a conflict, nothing else.
    const again = await request(me, doc);
    expect(again.statusCode).toBe(200);
    await drainJobs(t.app);
    expect(await stored(doc.id)).toMatchObject({ status: 'booked', paidWith: 'card' });
    expect(await kept(doc.id)).toBe(1_100);
  });

  // ---------------------------------------------------------------------------------------
  // Charged twice
  // ---------------------------------------------------------------------------------------

  it('charges once for five checkouts of the same booking at once', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 1_000 });
    const me = await customer();
    const bookingId = randomUUID();
    await Promise.all(
      Array.from({ length: 5 }, () =>
        pay(me, { ...order(bookingId, me.id, occurrence.id), card: visa }),
      ),
    );
    expect(await succeeded(bookingId)).toHaveLength(1);
    // Paid and used: a new checkout for it charges nothing more.
    await request(me, fresh(a.org.id, me.id, { id: bookingId, occurrenceId: occurrence.id }));
    const later = await pay(me, { ...order(bookingId, me.id, occurrence.id), card: visa });
    expect(later.statusCode).toBe(422);
    expect(later.json().message).toBe(bookingPayMessages.alreadyPaid);
    expect(await succeeded(bookingId)).toHaveLength(1);
  });

  it('charges once when a declined checkout is retried several times at once', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 1_000 });
    const me = await customer();
    const body = order(randomUUID(), me.id, occurrence.id);
    await pay(me, { ...body, card: declining });
    const saved = await t.db
      .select()
      .from(paymentMethods)
      .where(and(eq(paymentMethods.userId, me.id), eq(paymentMethods.last4, '0002')));
    await pay(me, { ...body, card: visa });
    const good = (
      await t.db
        .select()
        .from(paymentMethods)
        .where(and(eq(paymentMethods.userId, me.id), eq(paymentMethods.last4, '4242')))
    )[0]!;
    expect(saved).toHaveLength(1);
    const other = order(randomUUID(), me.id, occurrence.id);
    await pay(me, { ...other, paymentMethodId: saved[0]!.id });
    await Promise.all(
      Array.from({ length: 6 }, () => pay(me, { ...other, paymentMethodId: good.id })),
    );
    expect(await succeeded(body.bookingId)).toHaveLength(1);
    expect(await succeeded(other.bookingId)).toHaveLength(1);
  });

  // Was BROKEN (fixed in the same change): an attempt whose answer was lost (the processor charged, the server never heard:
  // a timeout, a crash between steps 2 and 3 of chargeBookingPayment) stays `charging` for
  // ever unless the same device retries the same checkout. Nothing sweeps it: the money is kept
  // and no place was taken (queueBookingRefunds / markUnusedRefundDue look at `paid` only).
  it('gives back, in time, money taken by an attempt whose answer was lost', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 2_500 });
    const me = await customer();
    await pay(me, { ...order(randomUUID(), me.id, occurrence.id), card: visa });
    const [card] = await t.db.select().from(paymentMethods).where(eq(paymentMethods.userId, me.id));
    const bookingId = randomUUID();
    const id = randomUUID();
    const since = new Date(Date.now() - 2 * DAY);
    await t.db.insert(bookingPayments).values({
      id,
      orgId: a.org.id,
      bookingId,
      payerUserId: me.id,
      customerUserId: me.id,
      occurrenceId: occurrence.id,
      description: 'Spin',
      amountMinor: 2_500,
      currency: 'USD',
      paymentMethodId: card!.id,
      status: 'charging',
      chargingSince: since,
      createdByUserId: me.id,
    });
    // Step 2 happened; its answer never came back (the dialog was closed, never retried).
    const outcome = await t.app.paymentProcessor.charge({
      orgId: a.org.id,
      userId: me.id,
      idempotencyKey: `booking-payment:${id}:1`,
      processorPaymentMethodId: card!.processorPaymentMethodId,
      amountMinor: 2_500,
      currency: 'USD',
      description: 'Spin',
    });
    expect(outcome.status).toBe('succeeded');
    await queueBookingRefunds(t.db, t.app.jobs, {
      processor: t.app.paymentProcessor,
      now: new Date(Date.now() + 2 * DAY),
    });
    await drainJobs(t.app);
    await queueBookingRefunds(t.db, t.app.jobs, {
      processor: t.app.paymentProcessor,
      now: new Date(Date.now() + 2 * DAY),
    });
    await drainJobs(t.app);
    expect(await kept(bookingId), 'charged, no place, never given back').toBe(0);
  });

  // ---------------------------------------------------------------------------------------
  // Whose card, whose place, which app
  // ---------------------------------------------------------------------------------------

  it('refuses paying with another person’s saved card or one saved in another organisation', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 1_000 });
    const [me, victim] = [await customer(), await customer()];
    await pay(victim, { ...order(randomUUID(), victim.id, occurrence.id), card: visa });
    const [theirCard] = await t.db
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.userId, victim.id));
    const bookingId = randomUUID();
    const stolen = await pay(me, {
      ...order(bookingId, me.id, occurrence.id),
      paymentMethodId: theirCard!.id,
    });
    expect(stolen.statusCode).toBe(422);
    expect(stolen.json().message).toBe(chargeMessages.paymentMethodUnknown);

    // My own card, saved in organisation B.
    const elsewhere = await insertOccurrence(t.db, b.org.id, { priceMinor: 1_000 });
    await addMembership(t.db, me.id, b.org.id, 'customer');
    const inB = (
      await logInAs(t.app, me.email, { profileType: 'use-customer', profileOrgId: b.org.id })
    ).jar;
    await pay(
      { ...me, jar: inB },
      { ...order(randomUUID(), me.id, elsewhere.occurrence.id), card: visa },
      b.org.id,
    );
    const [cardInB] = await t.db
      .select()
      .from(paymentMethods)
      .where(and(eq(paymentMethods.userId, me.id), eq(paymentMethods.orgId, b.org.id)));
    expect(cardInB).toBeTruthy();
    const foreign = await pay(me, {
      ...order(bookingId, me.id, occurrence.id),
      paymentMethodId: cardInB!.id,
    });
    expect(foreign.statusCode).toBe(422);
    expect(await succeeded(bookingId)).toHaveLength(0);
    // Nor does the options call list anyone else's cards.
    const mine = await options(me);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().paymentMethods).toEqual([]);
  });

  it('refuses paying for a child of another family, as staff, signed out, or in another app', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 1_000 });
    const me = await customer();
    // A child of another guardian of the same organisation.
    const guardian = await insertTestUser(t.db);
    await addMembership(t.db, guardian.id, a.org.id, 'customer');
    const theirChild = await insertTestUser(t.db, { email: null, withPassword: false });
    await addMembership(t.db, theirChild.id, a.org.id, 'customer');
    await linkChild(t.db, guardian.id, theirChild.id, a.org.id);
    const child = await pay(me, {
      ...order(randomUUID(), theirChild.id, occurrence.id),
      card: visa,
    });
    expect(child.statusCode).toBe(403);
    const notMine = await pay(me, { ...order(randomUUID(), a.childId, occurrence.id), card: visa });
    expect(notMine.statusCode).toBe(403);

    const asStaff = await pay(a.manager, {
      ...order(randomUUID(), a.manager.id, occurrence.id),
      card: visa,
    });
    expect(asStaff.statusCode).toBe(403);
    expect((await options(a.manager)).statusCode).toBe(403);
    const signedOut = await pay(null, { ...order(randomUUID(), me.id, occurrence.id), card: visa });
    expect(signedOut.statusCode).toBe(401);
    // A kiosk has no session: its header alone pays for nobody.
    const kiosk = await t.app.inject({
      method: 'POST',
      url: '/api/bookings/pay',
      headers: { 'x-kiosk': '1' },
      payload: { orgId: a.org.id, ...order(randomUUID(), me.id, occurrence.id), card: visa },
    });
    expect(kiosk.statusCode).toBe(401);
    expect((await options(null)).statusCode).toBe(401);
    const otherApp = await pay(
      me,
      { ...order(randomUUID(), me.id, occurrence.id), card: visa },
      b.org.id,
    );
    expect(otherApp.statusCode).toBe(403);
    expect((await options(me, b.org.id)).statusCode).toBe(403);
    const rows = await t.db
      .select()
      .from(bookingPayments)
      .where(inArray(bookingPayments.payerUserId, [me.id, a.manager.id]));
    expect(rows).toEqual([]);
  });

  it('does not let a customer take over, or learn about, another payer’s checkout', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 1_000 });
    const [me, victim] = [await customer(), await customer()];
    const theirs = order(randomUUID(), victim.id, occurrence.id);
    await pay(victim, { ...theirs, card: declining });
    const hijack = await pay(me, {
      ...order(randomUUID(), me.id, occurrence.id),
      checkoutId: theirs.checkoutId,
      card: visa,
    });
    expect(hijack.statusCode).toBe(404);
    expect(await paymentsOf(theirs.bookingId)).toMatchObject([
      { payerUserId: victim.id, status: 'declined' },
    ]);
    // The same checkout id used in another organisation.
    const elsewhere = await insertOccurrence(t.db, b.org.id, { priceMinor: 1_000 });
    const inB = await customer(b);
    const crossOrg = await pay(
      inB,
      {
        ...order(randomUUID(), inB.id, elsewhere.occurrence.id),
        checkoutId: theirs.checkoutId,
        card: visa,
      },
      b.org.id,
    );
    expect(crossOrg.statusCode).toBeLessThan(500);
    expect(crossOrg.json().paid ?? false).toBe(false);
    expect(await paymentsOf(theirs.bookingId)).toMatchObject([{ status: 'declined' }]);
  });

  // ---------------------------------------------------------------------------------------
  // Malformed ids
  // ---------------------------------------------------------------------------------------

  it('answers malformed ids with 4xx, and one checkout whatever the case of its id', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 1_000 });
    const me = await customer();
    const base = order(randomUUID(), me.id, occurrence.id);
    const upper = await pay(me, { ...base, checkoutId: base.checkoutId.toUpperCase(), card: visa });
    expect(upper.statusCode).toBeLessThan(500);
    const lower = await pay(me, { ...base, card: visa });
    expect(lower.statusCode).toBeLessThan(500);
    expect((await succeeded(base.bookingId)).length).toBeLessThanOrEqual(1);
    expect((await paymentsOf(base.bookingId)).length).toBeLessThanOrEqual(1);

    const cases: Array<[string, Record<string, unknown>, string?]> = [
      ['upper-case booking id', { bookingId: randomUUID().toUpperCase() }],
      ['upper-case class time id', { occurrenceId: occurrence.id.toUpperCase() }],
      ['non-uuid booking id', { bookingId: 'not-a-uuid' }],
      ['non-uuid class time id', { occurrenceId: 'yoga-2026-11-24T18:00' }],
      ['non-uuid checkout id', { checkoutId: '1' }],
      ['upper-case customer id', { customerUserId: me.id.toUpperCase() }],
      ['non-uuid card id', { paymentMethodId: 'pm_1' }],
      ['upper-case card id', { paymentMethodId: randomUUID().toUpperCase() }],
      [
        'appointment with a non-uuid type',
        {
          appointment: {
            typeId: 'x',
            staffUserId: randomUUID(),
            startsAt: new Date().toISOString(),
          },
        },
      ],
      [
        'appointment of an unknown type',
        {
          appointment: {
            typeId: randomUUID(),
            staffUserId: randomUUID(),
            startsAt: new Date(Date.now() + DAY).toISOString(),
          },
        },
      ],
      [
        'appointment far away',
        {
          appointment: {
            typeId: randomUUID(),
            staffUserId: randomUUID(),
            startsAt: '9999-12-31T23:59:59.999Z',
          },
        },
      ],
      ['amount named by the device', { amountMinor: 1 }],
    ];
    for (const [what, over] of cases) {
      const res = await pay(me, {
        ...order(randomUUID(), me.id, occurrence.id),
        card: visa,
        ...over,
      });
      expect(res.statusCode, `${what}: ${res.body}`).toBeLessThan(500);
      if (what === 'amount named by the device' && res.statusCode === 200)
        expect(res.json().amountMinor).toBe(1_000);
    }
    const upperOrg = await pay(
      me,
      { ...order(randomUUID(), me.id, occurrence.id), card: visa },
      a.org.id.toUpperCase(),
    );
    expect(upperOrg.statusCode).toBeLessThan(500);
    expect((await options(me, a.org.id.toUpperCase())).statusCode).toBeLessThan(500);
  });
});

/**
 * Attacks on the replicated collection `booking-payments` (read-only; the payer's family only —
 * not on staff devices since a09629c): reading other people's payments by pull or stream,
 * writing to it, never-charged rows, every change of status announced, odd receipts.
 */
describe.each(testDatabaseKinds)('attacks on the booking-payments collection (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Org;
  let b: Org;
  let base: string;

  type Receipt = Omit<BookingPaymentDoc, 'id'> & { id: string; _deleted: boolean };
  type Page = { documents: Receipt[]; checkpoint: { id: string; lsn: number } | null };
  const URL_OF = '/api/sync/booking-payments';

  beforeAll(async () => {
    // Jobs run only when a test drains them: each status a payment passes through is seen.
    t = await createTestApp(kind, {
      jobs: { stopTimeoutMs: 15_000, pollingIntervalSeconds: 3_600 },
    });
    a = await seedSyncOrg(t.app, t.db);
    b = await seedSyncOrg(t.app, t.db);
    for (const org of [a, b])
      await t.db
        .update(organizations)
        .set({ attributes: { timezone: ZONE } })
        .where(eq(organizations.id, org.org.id));
    base = await listenOnLoopback(t.app);
  });
  afterAll(async () => t?.close());

  const address = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  const signIn = async (
    user: { id: string; email: string | null },
    orgId: string,
    profileType: 'use-customer' | 'use-org' = 'use-customer',
  ): Promise<Person> => {
    const { jar } = await logInAs(t.app, user.email ?? '', { profileType, profileOrgId: orgId });
    return { id: user.id, email: user.email ?? '', jar };
  };
  const customer = (org: Org = a) => signedInCustomer(t.app, t.db, org.org.id);
  const staffWith = async (claims: string[], org: Org = a): Promise<Person> => {
    const user = await insertTestUser(t.db);
    await addMembership(t.db, user.id, org.org.id, 'staff', claims);
    return signIn(user, org.org.id, 'use-org');
  };
  const order = payOrder;
  const pay = (who: Person, body: Record<string, unknown>, orgId = a.org.id) =>
    t.app.inject({
      method: 'POST',
      url: '/api/bookings/pay',
      headers: who.jar.headers(),
      remoteAddress: address(),
      payload: { orgId, ...body },
    });
  const fresh = (orgId: string, customerUserId: string, over: Record<string, unknown> = {}) => {
    const at = new Date().toISOString();
    return booking(orgId, customerUserId, { requestedAt: at, updatedAt: at, ...over });
  };
  const pushTo = (collection: string, headers: Record<string, string>, rows: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/api/sync/${collection}/push`,
      headers,
      payload: rows as object,
    });
  /** A place of `org` paid by `who` (for themself unless told), and the booking to request it. */
  async function paidPlace(
    who: Person,
    options: { customerUserId?: string; org?: Org; priceMinor?: number; title?: string } = {},
  ) {
    const org = options.org ?? a;
    const { occurrence } = await insertOccurrence(t.db, org.org.id, {
      priceMinor: options.priceMinor ?? 1_000,
      ...(options.title !== undefined ? { title: options.title } : {}),
    });
    const customerUserId = options.customerUserId ?? who.id;
    const doc = fresh(org.org.id, customerUserId, { occurrenceId: occurrence.id });
    const body = order(doc.id, customerUserId, occurrence.id);
    const res = await pay(who, { ...body, card: visa }, org.org.id);
    expect(res.json(), res.body).toMatchObject({ paid: true });
    return { doc, body, occurrence, paymentId: body.checkoutId };
  }
  const pullWith = async (headers: Record<string, string>, query = '?batchSize=1000') => {
    await waitForVisibility(t.db);
    return t.app.inject({ method: 'GET', url: `${URL_OF}/pull${query}`, headers });
  };
  const headersOf = (who: Person) => who.jar.headers() as Record<string, string>;
  /** Every page of the feed from `from`, `batchSize` at a time; each page must answer 200. */
  async function feed(who: Person, batchSize: number, from: Page['checkpoint'] = null) {
    const documents: Receipt[] = [];
    let checkpoint = from;
    for (let pages = 0; pages < 500; pages++) {
      const query = checkpoint
        ? `?batchSize=${batchSize}&id=${checkpoint.id}&lsn=${checkpoint.lsn}`
        : `?batchSize=${batchSize}`;
      const res = await pullWith(headersOf(who), query);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json() as Page;
      documents.push(...page.documents);
      if (page.checkpoint) checkpoint = page.checkpoint;
      if (page.documents.length < batchSize) break;
    }
    return { documents, checkpoint };
  }
  const rowsOfOrg = (orgId: string) =>
    t.db
      .select()
      .from(bookingPayments)
      .where(eq(bookingPayments.orgId, orgId))
      .orderBy(bookingPayments.id);
  const txidOf = async (id: string) =>
    Number(
      (
        await t.db
          .select({ txid: bookingPayments.txid })
          .from(bookingPayments)
          .where(eq(bookingPayments.id, id))
      )[0]?.txid,
    );

  it('hands a payment to nobody outside the payer’s family — no staff, kiosk or other organisation — whatever the checkpoint or page size', async () => {
    const victim = await customer();
    const mine = await paidPlace(victim, { priceMinor: 4_321 });
    const second = await paidPlace(victim, { priceMinor: 1_234 });
    const ids: string[] = [mine.paymentId, second.paymentId];
    const attacker = await customer();
    await paidPlace(attacker);
    const leaks = (docs: Receipt[]) =>
      docs.filter((d) => ids.includes(d.id) || d.payerUserId === victim.id);

    // Another customer of the organisation: any page size, any checkpoint it can make up.
    for (const size of [1, 2, 3, 1000])
      expect(leaks((await feed(attacker, size)).documents)).toEqual([]);
    for (const id of ids) {
      const lsn = await txidOf(id);
      for (const checkpoint of [
        { id, lsn: lsn - 1 },
        { id: '00000000-0000-0000-0000-000000000000', lsn: 0 },
        { id, lsn: 0 },
        { id: 'ffffffff-ffff-ffff-ffff-ffffffffffff', lsn: lsn - 1 },
      ])
        expect(leaks((await feed(attacker, 1, checkpoint)).documents)).toEqual([]);
    }
    // Upper-case ids, huge and odd positions: refused or empty, never a 500 nor a leak.
    for (const query of [
      `?id=${ids[0]!.toUpperCase()}&lsn=0`,
      `?id=${ids[0]}&lsn=9007199254740991`,
      `?id=${ids[0]}&lsn=1e21`,
      `?id=${ids[0]}&lsn=-1`,
      `?id=${ids[0]}`,
      `?batchSize=0`,
      `?batchSize=100000`,
      `?orgId=${a.org.id}&payerUserId=${victim.id}`,
    ]) {
      const res = await pullWith(headersOf(attacker), query);
      expect(res.statusCode, `${query}: ${res.body}`).toBeLessThan(500);
      if (res.statusCode === 200) expect(leaks(res.json().documents)).toEqual([]);
    }

    // Staff, whatever they hold — selling included (since a09629c no staff device replicates
    // the collection) — of this organisation or another.
    for (const [claims, org] of [
      [[], a],
      [['manage-schedule', 'view-customers', 'manage-others-time-tracking'], a],
      [['manage-point-of-sale'], a],
      [['manage-point-of-sale'], b],
    ] as const) {
      const staff = await staffWith([...claims], org);
      const res = await pullWith(headersOf(staff));
      expect(res.statusCode, `${claims.join()}: ${res.body}`).toBe(403);
    }
    for (const manager of [a.manager, b.manager])
      expect((await pullWith(headersOf(manager))).statusCode).toBe(403);
    // The payer's own account signed in to another organisation; a staff member of A who is
    // also a customer there, in the customer app.
    await addMembership(t.db, victim.id, b.org.id, 'customer');
    const victimInB = await signIn(victim, b.org.id);
    expect(leaks((await feed(victimInB, 1000)).documents)).toEqual([]);
    const staffUser = await insertTestUser(t.db);
    await addMembership(t.db, staffUser.id, a.org.id, 'staff', ['manage-point-of-sale']);
    await addMembership(t.db, staffUser.id, a.org.id, 'customer');
    const staffAsCustomer = await signIn(staffUser, a.org.id);
    expect(leaks((await feed(staffAsCustomer, 1000)).documents)).toEqual([]);
    // A kiosk (its credential, or only its header), signed out.
    const kiosk = await startTestKiosk(t.app, t.db, a.org.id);
    const asDevice = asKiosk(kiosk.jar) as Record<string, string>;
    expect((await pullWith(asDevice)).statusCode).toBe(403);
    expect((await pullWith({ [KIOSK_REQUEST_HEADER]: '1' })).statusCode).toBe(401);
    // The kiosk header on the payer's own session: the kiosk's scope, never the session's.
    const mixed = await pullWith({ ...headersOf(victim), [KIOSK_REQUEST_HEADER]: '1' });
    expect(mixed.statusCode).toBeGreaterThanOrEqual(400);
    expect((await pullWith({})).statusCode).toBe(401);

    // The payer does see them, on any page size.
    for (const size of [1, 1000]) {
      const own = (await feed(victim, size)).documents;
      expect(own.filter((d) => ids.includes(d.id))).toMatchObject([
        { amountMinor: 4_321, _deleted: false },
        { amountMinor: 1_234, _deleted: false },
      ]);
      expect(own.every((d) => d.payerUserId === victim.id)).toBe(true);
    }
  });

  it('shows a guardian their children’s own payments, and a child none of the guardian’s', async () => {
    const guardian = await customer();
    // A child who paid in their own account before their guardian was linked.
    const childUser = await insertTestUser(t.db);
    await addMembership(t.db, childUser.id, a.org.id, 'customer');
    const child = await signIn(childUser, a.org.id);
    const childPaid = await paidPlace(child, { priceMinor: 700 });
    await linkChild(t.db, guardian.id, child.id, a.org.id);
    // The guardian pays for the child's next place: theirs, as the payer.
    const guardianPaid = await paidPlace(
      await signIn({ id: guardian.id, email: guardian.email }, a.org.id),
      {
        customerUserId: child.id,
        priceMinor: 900,
      },
    );
    // Someone whose link to the child was never confirmed.
    const stranger = await customer();
    await linkChild(t.db, stranger.id, child.id, a.org.id, { confirmed: false });
    const guardianNow = await signIn({ id: guardian.id, email: guardian.email }, a.org.id);
    const strangerNow = await signIn({ id: stranger.id, email: stranger.email }, a.org.id);
    const childNow = await signIn(childUser, a.org.id);

    const seen = async (who: Person) =>
      (await feed(who, 1)).documents
        .filter((d) => !d._deleted)
        .map((d) => d.id)
        .sort();
    expect(await seen(guardianNow)).toEqual([childPaid.paymentId, guardianPaid.paymentId].sort());
    expect(await seen(childNow)).toEqual([childPaid.paymentId]);
    expect(await seen(strangerNow)).toEqual([]);
    expect(await seen(a.parent)).toEqual([]);
  });

  it('refuses every push to the collection and changes nothing', async () => {
    const me = await customer();
    const place = await paidPlace(me, { priceMinor: 1_500 });
    const declinedOcc = await insertOccurrence(t.db, a.org.id, { priceMinor: 800 });
    const declinedBody = order(randomUUID(), me.id, declinedOcc.occurrence.id);
    expect((await pay(me, { ...declinedBody, card: declining })).json()).toMatchObject({
      paid: false,
    });
    const other = await customer();
    const theirs = await paidPlace(other, { priceMinor: 2_000 });
    await drainJobs(t.app);
    const { documents } = await feed(me, 1000);
    const receipt = documents.find((d) => d.id === place.paymentId)!;
    const tomb = documents.find((d) => d.id === declinedBody.checkoutId);
    expect(receipt).toMatchObject({ status: 'paid' });
    const before = await rowsOfOrg(a.org.id);
    const now = new Date().toISOString();
    const newId = randomUUID();
    const seller = await staffWith(['manage-point-of-sale']);
    const kiosk = await startTestKiosk(t.app, t.db, a.org.id);
    const attempts: Array<[string, Record<string, string>, unknown]> = [
      [
        'the payer marks theirs refunded',
        headersOf(me),
        [
          {
            assumedMasterState: receipt,
            newDocumentState: { ...receipt, status: 'refunded', updatedAt: now },
          },
        ],
      ],
      [
        'the payer makes it cost less',
        headersOf(me),
        [
          {
            assumedMasterState: receipt,
            newDocumentState: { ...receipt, amountMinor: 1, updatedAt: now },
          },
        ],
      ],
      [
        'the payer writes a payment that never was',
        headersOf(me),
        [
          {
            assumedMasterState: null,
            newDocumentState: { ...receipt, id: newId, bookingId: randomUUID(), updatedAt: now },
          },
        ],
      ],
      [
        'the payer revives a declined attempt as paid',
        headersOf(me),
        [
          {
            assumedMasterState: tomb ?? null,
            newDocumentState: {
              ...(tomb ?? receipt),
              id: declinedBody.checkoutId,
              status: 'paid',
              updatedAt: now,
              _deleted: false,
            },
          },
        ],
      ],
      [
        'the payer deletes theirs',
        headersOf(me),
        [
          {
            assumedMasterState: receipt,
            newDocumentState: { ...receipt, _deleted: true, updatedAt: now },
          },
        ],
      ],
      [
        'another customer flips it',
        headersOf(other),
        [
          {
            assumedMasterState: null,
            newDocumentState: { ...receipt, status: 'refund-due', updatedAt: now },
          },
        ],
      ],
      [
        'a seller marks it refunded',
        headersOf(seller),
        [
          {
            assumedMasterState: receipt,
            newDocumentState: { ...receipt, status: 'refunded', updatedAt: now },
          },
        ],
      ],
      [
        'the manager writes one in another person’s name',
        headersOf(a.manager),
        [
          {
            assumedMasterState: null,
            newDocumentState: {
              ...receipt,
              id: randomUUID(),
              payerUserId: other.id,
              updatedAt: now,
            },
          },
        ],
      ],
      [
        'B’s manager writes one into A',
        headersOf(b.manager),
        [
          {
            assumedMasterState: null,
            newDocumentState: { ...receipt, id: randomUUID(), updatedAt: now },
          },
        ],
      ],
      [
        'a kiosk',
        asKiosk(kiosk.jar) as Record<string, string>,
        [
          {
            assumedMasterState: receipt,
            newDocumentState: { ...receipt, status: 'refunded', updatedAt: now },
          },
        ],
      ],
      [
        'signed out',
        {},
        [
          {
            assumedMasterState: receipt,
            newDocumentState: { ...receipt, status: 'refunded', updatedAt: now },
          },
        ],
      ],
    ];
    for (const [what, headers, rows] of attempts) {
      const res = await pushTo('booking-payments', headers, rows);
      expect(res.statusCode, `${what}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${what}: ${res.body}`).toBeLessThan(500);
    }
    // An empty push changes nothing either.
    expect((await pushTo('booking-payments', headersOf(me), [])).statusCode).toBeLessThan(500);
    await drainJobs(t.app);
    expect(await rowsOfOrg(a.org.id)).toEqual(before);
    expect(await t.db.select().from(bookingPayments).where(eq(bookingPayments.id, newId))).toEqual(
      [],
    );
    expect(
      (
        await t.db.select().from(bookingPayments).where(eq(bookingPayments.id, theirs.paymentId))
      )[0],
    ).toMatchObject({ status: 'paid', amountMinor: 2_000 });
  });

  it('keeps never-charged attempts as tombstones and out of everyone else’s reach', async () => {
    const me = await customer();
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 2_222 });
    const declined = order(randomUUID(), me.id, occurrence.id);
    expect((await pay(me, { ...declined, card: declining })).json()).toMatchObject({ paid: false });
    // An attempt still being charged (its answer not back yet).
    const [card] = await t.db.select().from(paymentMethods).where(eq(paymentMethods.userId, me.id));
    const charging: string = randomUUID();
    await t.db.insert(bookingPayments).values({
      id: charging,
      orgId: a.org.id,
      bookingId: randomUUID(),
      payerUserId: me.id,
      customerUserId: me.id,
      occurrenceId: occurrence.id,
      description: 'Spin',
      amountMinor: 3_333,
      currency: 'USD',
      paymentMethodId: card!.id,
      status: 'charging',
      chargingSince: new Date(),
      createdByUserId: me.id,
    });
    for (const size of [1, 1000]) {
      const mine = (await feed(me, size)).documents.filter((d) =>
        [declined.checkoutId as string, charging].includes(d.id),
      );
      expect(mine.map((d) => d._deleted)).toEqual(mine.map(() => true));
    }
    for (const who of [a.other, a.parent, await customer(b)])
      expect(
        (await feed(who, 1000)).documents.filter((d) =>
          [declined.checkoutId as string, charging].includes(d.id),
        ),
      ).toEqual([]);
    // Paid on the second try: the receipt comes back to life, at the price of now.
    expect((await pay(me, { ...declined, card: visa })).json()).toMatchObject({ paid: true });
    expect(
      (await feed(me, 1000)).documents.find((d) => d.id === declined.checkoutId),
    ).toMatchObject({
      _deleted: false,
      status: 'paid',
      amountMinor: 2_222,
    });
    await t.db.delete(bookingPayments).where(eq(bookingPayments.id, charging));
  });

  describe('every change of status reaches the payer’s devices', () => {
    let stream: Awaited<ReturnType<typeof openSse>>;
    let me: Person;
    let checkpoint: Page['checkpoint'] = null;

    beforeAll(async () => {
      me = await customer();
      stream = await openSse(`${base}/api/sync/stream`, headersOf(me));
      await stream.next((e) => e.event === 'resync');
      checkpoint = (await feed(me, 1000)).checkpoint;
    });
    afterAll(() => stream?.close());

    const rank: Record<string, number> = {
      paid: 0,
      used: 1,
      'refund-due': 2,
      refunded: 3,
      'refund-refused': 3,
    };
    /** The status each payment had at the device's last pull. */
    const known = new Map<string, string>();
    /**
     * After `step`: a change is told on the stream, and the pull from the device's checkpoint
     * after it shows `status` — or one further along, when a job already took it there (the
     * refund job may run as soon as it is queued).
     */
    async function expectAnnounced(step: () => Promise<unknown>, id: string, status: string) {
      const from = stream.events.length;
      await step();
      const before = known.get(id);
      if (before && rank[before]! >= rank[status]!) return;
      await stream.next(changeOf('booking-payments'), 5_000, from);
      const page = await feed(me, 1000, checkpoint);
      checkpoint = page.checkpoint;
      const doc = page.documents.filter((d) => d.id === id).at(-1);
      expect(doc, `${status}: in the pull after its event`).toBeDefined();
      known.set(id, doc!.status);
      expect(rank[doc!.status], `${status}, pulled ${doc!.status}`).toBeGreaterThanOrEqual(
        rank[status]!,
      );
    }
    const request = (doc: object) => pushNewAs(t, me, 'bookings', [doc]);
    const bookingAsPulled = async (id: string) => (await pulledAs(t, me, 'bookings', id)) as Doc;
    const noJobs = { enqueue: async () => 'not queued' };

    it('paid → used → refund-due → refunded, when the customer cancels in time', async () => {
      const { occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 1_700 });
      const doc = fresh(a.org.id, me.id, { occurrenceId: occurrence.id });
      const body = order(doc.id, me.id, occurrence.id);
      await expectAnnounced(() => pay(me, { ...body, card: visa }), body.checkoutId, 'paid');
      await expectAnnounced(() => request(doc), body.checkoutId, 'used');
      const master = await bookingAsPulled(doc.id);
      await expectAnnounced(
        () =>
          pushTo('bookings', headersOf(me), [
            {
              assumedMasterState: master,
              newDocumentState: {
                ...master,
                status: 'cancelled',
                updatedAt: new Date().toISOString(),
              },
            },
          ]),
        body.checkoutId,
        'refund-due',
      );
      await expectAnnounced(() => drainJobs(t.app), body.checkoutId, 'refunded');
      const [last] = (await feed(me, 1000)).documents.filter((d) => d.id === body.checkoutId);
      expect(last).toMatchObject({
        status: 'refunded',
        refundedAt: expect.any(String),
        _deleted: false,
      });
    });

    it('refund-due when staff cancel the class, and when the sweep finds a payment unused', async () => {
      const cancelledClass = await insertOccurrence(t.db, a.org.id, { priceMinor: 1_100 });
      const doc = fresh(a.org.id, me.id, { occurrenceId: cancelledClass.occurrence.id });
      const body = order(doc.id, me.id, cancelledClass.occurrence.id);
      await pay(me, { ...body, card: visa });
      await request(doc);
      await expectAnnounced(
        () =>
          t.app.inject({
            method: 'PATCH',
            url: `/api/schedule/occurrences/${cancelledClass.occurrence.id}`,
            headers: a.manager.jar.headers(),
            payload: { cancelled: true },
          }),
        body.checkoutId,
        'refund-due',
      );
      await expectAnnounced(() => drainJobs(t.app), body.checkoutId, 'refunded');

      // Paid, never booked: a day later the sweep owes it back, then the job refunds it.
      const unused = await paidPlace(me, { priceMinor: 1_900 });
      await expectAnnounced(
        () =>
          queueBookingRefunds(t.db, noJobs, {
            processor: t.app.paymentProcessor,
            now: new Date(Date.now() + 2 * DAY),
          }),
        unused.paymentId,
        'refund-due',
      );
      await expectAnnounced(
        () =>
          refundBookingPayment({ db: t.db, processor: t.app.paymentProcessor }, unused.paymentId),
        unused.paymentId,
        'refunded',
      );
    });

    it('refund-refused, and an unanswered attempt the sweep finds charged and owes back', async () => {
      const refused = await paidPlace(me, { priceMinor: 1_300 });
      await t.db
        .update(bookingPayments)
        .set({ status: 'refund-due', processorChargeId: null })
        .where(eq(bookingPayments.id, refused.paymentId));
      await expectAnnounced(
        () =>
          refundBookingPayment({ db: t.db, processor: t.app.paymentProcessor }, refused.paymentId),
        refused.paymentId,
        'refund-refused',
      );

      const [card] = await t.db
        .select()
        .from(paymentMethods)
        .where(eq(paymentMethods.userId, me.id));
      const id = randomUUID();
      await t.db.insert(bookingPayments).values({
        id,
        orgId: a.org.id,
        bookingId: randomUUID(),
        payerUserId: me.id,
        customerUserId: me.id,
        occurrenceId: refused.occurrence.id,
        description: 'Spin',
        amountMinor: 2_500,
        currency: 'USD',
        paymentMethodId: card!.id,
        status: 'charging',
        chargingSince: new Date(Date.now() - 2 * DAY),
        createdByUserId: me.id,
      });
      await t.app.paymentProcessor.charge({
        orgId: a.org.id,
        userId: me.id,
        idempotencyKey: `booking-payment:${id}:1`,
        processorPaymentMethodId: card!.processorPaymentMethodId,
        amountMinor: 2_500,
        currency: 'USD',
        description: 'Spin',
      });
      await expectAnnounced(
        () => queueBookingRefunds(t.db, noJobs, { processor: t.app.paymentProcessor }),
        id,
        'refund-due',
      );
    });
  });

  it('tells nobody else about a payment on the stream, and gives away no id or amount', async () => {
    const payer = await customer();
    const kiosk = await startTestKiosk(t.app, t.db, a.org.id);
    const watchers = {
      other: headersOf(a.other),
      parent: headersOf(a.parent),
      seller: headersOf(await staffWith(['manage-point-of-sale'])),
      manager: headersOf(a.manager),
      staffNoSale: headersOf(await staffWith(['manage-schedule', 'view-customers'])),
      otherOrg: headersOf(b.manager),
      kiosk: asKiosk(kiosk.jar) as Record<string, string>,
    };
    const open = async (headers: Record<string, string>) => {
      const s = await openSse(`${base}/api/sync/stream`, headers);
      await s.next((e) => e.event === 'resync');
      return s;
    };
    const streams = Object.fromEntries(
      await Promise.all(
        Object.entries(watchers).map(async ([k, h]) => [k, await open(h)] as const),
      ),
    );
    const own = await open(headersOf(payer));
    try {
      const place = await paidPlace(payer, { priceMinor: 6_789 });
      await own.next(changeOf('booking-payments'));
      const seen = own.events.length;
      // The sweep owes it back: a second change, to the payer only.
      await queueBookingRefunds(
        t.db,
        { enqueue: async () => 'not queued' },
        { processor: t.app.paymentProcessor, now: new Date(Date.now() + 2 * DAY) },
      );
      await own.next(changeOf('booking-payments'), 5_000, seen);
      await new Promise((r) => setTimeout(r, 300));
      for (const [who, s] of [...Object.entries(streams), ['payer', own] as const]) {
        if (who !== 'payer') expect(s.events.filter(changeOf('booking-payments')), who).toEqual([]);
        const text = JSON.stringify(s.events);
        expect(text, who).not.toContain(place.paymentId);
        expect(text, who).not.toContain('6789');
      }
    } finally {
      for (const s of [...Object.values(streams), own]) s.close();
    }
  });

  it('never lets an odd receipt stop the payer’s feed', async () => {
    const me = await customer();
    const titles = [
      '<img src=x onerror=alert(1)>',
      '\u202Egnp.exe',
      'line\nbreak\r\nand\ttab',
      '"}],"checkpoint":null,"documents":[{"id":"x"}]}',
      '😀'.repeat(120),
      'Z\u0351\u0352\u0353'.repeat(30),
      '\\u0000 %s %n ${x} {{x}}',
      // Longer than any title the schedule accepts (a row written before the limit, or by SQL).
      'Spin '.repeat(200),
    ];
    const paidIds: string[] = [];
    for (const title of titles)
      paidIds.push((await paidPlace(me, { title, priceMinor: 500 })).paymentId);
    // A payment whose stored time is no instant (written by SQL).
    const odd = await paidPlace(me, { priceMinor: 600 });
    await t.db.execute(
      sql`update booking_payments set paid_at = 'infinity' where id = ${odd.paymentId}`,
    );
    const last = await paidPlace(me, { priceMinor: 700, title: 'Yoga' });
    for (const size of [1, 2, 5, 1000]) {
      const { documents } = await feed(me, size);
      expect(
        documents.map((d) => d.id),
        `batch ${size}`,
      ).toContain(last.paymentId);
      for (const d of documents)
        expect(bookingPaymentDocSchema.extend({ _deleted: z.boolean() }).safeParse(d).success).toBe(
          true,
        );
      const received = documents.filter((d) => !d._deleted).map((d) => d.id);
      // Every receipt a title the schedule accepts makes arrives.
      for (const [i, id] of paidIds.slice(0, -1).entries())
        expect(received, `title ${JSON.stringify(titles[i])}`).toContain(id);
    }
  });
});
