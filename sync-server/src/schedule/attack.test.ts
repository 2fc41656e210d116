import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { bookings, classOccurrences, products, punchCardCredits } from '@platform/schema/db';
import { bookingMessages } from '@platform/schema/bookings/booking.rules';
import { addMembership, insertTestUser, linkChild } from '../testing/auth-fixtures.ts';
import { insertOccurrence } from '../testing/schedule-fixtures.ts';
import {
  booking,
  pulledAs,
  pushChangeAs,
  pushNewAs,
  seedSyncOrg,
  signedInCustomer,
  waitForVisibility,
  type Person,
} from '../testing/sync-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

/**
 * Attacks on class bookings and the schedule (issue 16): each test asserts the SAFE behaviour,
 * so it fails when the attack succeeds. PostgreSQL when DATABASE_URL is set, else PGlite.
 */
const kind = testDatabaseKinds[0] ?? 'pglite';

type Doc = Record<string, unknown> & { id: string; status: string };

describe(`attacks on bookings and the schedule (${kind})`, () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;
  let b: Awaited<ReturnType<typeof seedSyncOrg>>;

  beforeAll(async () => {
    // Its pushes leave many notice jobs: given time to finish before the database closes
    // (pg-boss completes a job without awaiting; closing under it is an unhandled rejection).
    t = await createTestApp(kind, { jobs: { stopTimeoutMs: 15_000 } });
    a = await seedSyncOrg(t.app, t.db);
    b = await seedSyncOrg(t.app, t.db);
  });
  afterAll(async () => t?.close());

  const pushNew = (who: Person, docs: object[]) => pushNewAs(t, who, 'bookings', docs);
  /** A change of a document the device holds as `master`. */
  const change = (who: Person, master: Doc, next: Record<string, unknown>) =>
    pushChangeAs(t, who, 'bookings', master, next);
  const stored = async (id: string) => {
    const [row] = await t.db.select().from(bookings).where(eq(bookings.id, id));
    return row;
  };
  const counts = async (id: string) => {
    const [row] = await t.db
      .select({ booked: classOccurrences.bookedCount, waiting: classOccurrences.waitlistCount })
      .from(classOccurrences)
      .where(eq(classOccurrences.id, id));
    return row;
  };
  const pulled = async (who: Person, id: string) => (await pulledAs(t, who, 'bookings', id)) as Doc;
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

  /** A punch-card group with `credits` credits given to `customerUserId` in org a. */
  const creditsFor = async (customerUserId: string, credits: number) => {
    const groupId = randomUUID();
    const [pack] = await t.db
      .insert(products)
      .values({
        orgId: a.org.id,
        name: 'Pack',
        type: 'one-time',
        schedule: 'one-time',
        priceMinor: 5_000,
        processorProductId: `prod_sandbox_${groupId}`,
        punchCardConfiguration: { groups: [{ id: groupId, name: 'Classes', credits }] },
      })
      .returning();
    await t.db.insert(punchCardCredits).values({
      orgId: a.org.id,
      customerUserId,
      productId: pack!.id,
      productName: pack!.name,
      groupId,
      groupName: 'Classes',
      delta: credits,
      reason: 'import',
    });
    const balance = async () =>
      (
        await t.db
          .select({ delta: punchCardCredits.delta })
          .from(punchCardCredits)
          .where(
            and(
              eq(punchCardCredits.customerUserId, customerUserId),
              eq(punchCardCredits.groupId, groupId),
            ),
          )
      ).reduce((sum, row) => sum + row.delta, 0);
    return { groupId, balance };
  };
  /** A fresh customer of org a, signed in to its customer app. */
  const freshCustomer = () => signedInCustomer(t.app, t.db, a.org.id);

  // ---------------------------------------------------------------------------------------
  // Whose class, whose person
  // ---------------------------------------------------------------------------------------

  it('refuses a customer of org A a place on org B’s class time named by its id', async () => {
    const { occurrence: theirs } = await insertOccurrence(t.db, b.org.id, { capacity: 1 });
    const doc = booking(a.org.id, a.parent.id, { occurrenceId: theirs.id });
    expect((await pushNew(a.parent, [doc])).statusCode).toBe(200);
    expect(await stored(doc.id)).toMatchObject({
      status: 'refused',
      refusal: bookingMessages.noSuchClass,
    });
    // Pushed into org B's organisation directly: not theirs.
    const direct = await pushNew(a.parent, [
      booking(b.org.id, a.parent.id, { occurrenceId: theirs.id }),
    ]);
    expect(direct.statusCode).toBe(422);
    expect(await counts(theirs.id)).toEqual({ booked: 0, waiting: 0 });
  });

  it('never shows org B’s class in org A’s calendar feed through a booking naming its id', async () => {
    const { occurrence: theirs } = await insertOccurrence(t.db, b.org.id, {
      title: 'Org B private masterclass',
    });
    // Refused (no such class here), then withdrawn: a cancelled booking naming B's class time.
    const doc = booking(a.org.id, a.parent.id, { occurrenceId: theirs.id });
    await pushNew(a.parent, [doc]);
    const refused = await pulled(a.parent, doc.id);
    expect(refused.status).toBe('refused');
    expect((await change(a.parent, refused, { status: 'cancelled' })).statusCode).toBe(200);
    // Org B cancels its own class time.
    const cancelled = await call(b.manager, 'PATCH', `/api/schedule/occurrences/${theirs.id}`, {
      cancelled: true,
    });
    expect(cancelled.statusCode).toBe(200);
    const made = (await call(a.parent, 'POST', '/api/schedule/calendar-feed')).json() as {
      url: string;
    };
    const feed = await t.app.inject({ method: 'GET', url: new URL(made.url).pathname });
    expect(feed.statusCode).toBe(200);
    expect(feed.body).not.toContain('Org B private masterclass');
  });

  it('refuses booking a stranger, another organisation’s customer, a staff member, or an unconfirmed child', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id);
    const targets = [a.otherCustomerId, b.parent.id, a.manager.id, a.staff.id, randomUUID()];
    for (const personId of targets) {
      const doc = booking(a.org.id, personId, { occurrenceId: occurrence.id });
      const res = await pushNew(a.parent, [doc]);
      expect(res.statusCode, `booking for ${personId}`).toBe(422);
      expect(await stored(doc.id)).toBeUndefined();
    }
    // A child whose link the child's side never confirmed.
    const kid = await insertTestUser(t.db, { email: null, withPassword: false });
    await addMembership(t.db, kid.id, a.org.id, 'customer');
    await linkChild(t.db, a.parent.id, kid.id, a.org.id, { confirmed: false });
    const unconfirmed = booking(a.org.id, kid.id, { occurrenceId: occurrence.id });
    expect((await pushNew(a.parent, [unconfirmed])).statusCode).toBe(422);
    // A confirmed child who is a customer of another organisation only.
    const elsewhereKid = await insertTestUser(t.db, { email: null, withPassword: false });
    await addMembership(t.db, elsewhereKid.id, b.org.id, 'customer');
    await linkChild(t.db, a.parent.id, elsewhereKid.id, b.org.id);
    const notHere = booking(a.org.id, elsewhereKid.id, { occurrenceId: occurrence.id });
    const res = await pushNew(a.parent, [notHere]);
    expect(res.statusCode).toBe(422);
    expect(await counts(occurrence.id)).toEqual({ booked: 0, waiting: 0 });
  });

  // ---------------------------------------------------------------------------------------
  // Verdicts, payments and attendance are the server's
  // ---------------------------------------------------------------------------------------

  it('refuses a new booking pushed as booked, attended, waitlisted, no-show or cancelled', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { capacity: 1 });
    for (const status of ['booked', 'attended', 'waitlisted', 'no-show', 'cancelled']) {
      const doc = booking(a.org.id, a.parent.id, { occurrenceId: occurrence.id, status });
      const res = await pushNew(a.parent, [doc]);
      expect(res.statusCode, status).toBe(422);
      expect(await stored(doc.id)).toBeUndefined();
    }
    expect(await counts(occurrence.id)).toEqual({ booked: 0, waiting: 0 });
  });

  it('ignores the server’s fields a customer sets, on a new request and on a held place', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 2_500 });
    const sly = booking(a.org.id, a.parent.id, {
      occurrenceId: occurrence.id,
      paidWith: 'subscription',
      decidedAt: '2020-01-01T00:00:00.000Z',
      checkedInAt: '2020-01-01T00:00:00.000Z',
      refusal: null,
    });
    await pushNew(a.parent, [sly]);
    // A priced class nothing of theirs includes: refused, whatever the device said it paid.
    expect(await stored(sly.id)).toMatchObject({
      status: 'refused',
      paidWith: null,
      checkedInAt: null,
      refusal: bookingMessages.payAtBooking,
    });
    expect((await stored(sly.id))?.decidedAt?.getTime()).toBeGreaterThan(Date.now() - 60_000);

    const { occurrence: free } = await insertOccurrence(t.db, a.org.id);
    const mine = booking(a.org.id, a.parent.id, { occurrenceId: free.id });
    await pushNew(a.parent, [mine]);
    const master = await pulled(a.parent, mine.id);
    expect(master).toMatchObject({ status: 'booked', paidWith: 'free' });
    const res = await change(a.parent, master, {
      paidWith: 'desk',
      checkedInAt: new Date().toISOString(),
      decidedAt: '2020-01-01T00:00:00.000Z',
      refusal: 'hacked',
    });
    expect(res.statusCode).toBe(200);
    expect(await stored(mine.id)).toMatchObject({
      status: 'booked',
      paidWith: 'free',
      checkedInAt: null,
      refusal: null,
      decidedAt: new Date(master.decidedAt as string),
    });
  });

  it('refuses a customer checking in, marking a no-show, re-requesting a held place, or cancelling an attended one', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id);
    const mine = booking(a.org.id, a.parent.id, { occurrenceId: occurrence.id });
    await pushNew(a.parent, [mine]);
    const master = await pulled(a.parent, mine.id);
    for (const status of ['attended', 'no-show', 'requested', 'waitlisted', 'refused']) {
      const res = await change(a.parent, master, { status });
      expect(res.statusCode, status).toBe(422);
    }
    // Staff check in; the customer then tries to cancel the attended place for a refund.
    expect((await change(a.manager, master, { status: 'attended' })).statusCode).toBe(200);
    const attended = await pulled(a.parent, mine.id);
    const res = await change(a.parent, attended, { status: 'cancelled' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0].message).toBe(bookingMessages.settledByStaff);
    expect((await stored(mine.id))?.status).toBe('attended');
    expect(await counts(occurrence.id)).toEqual({ booked: 1, waiting: 0 });
  });

  it('refuses moving a booking to another person or class time, and deleting it', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id);
    const { occurrence: other } = await insertOccurrence(t.db, a.org.id, { capacity: 1 });
    const mine = booking(a.org.id, a.parent.id, { occurrenceId: occurrence.id });
    await pushNew(a.parent, [mine]);
    const master = await pulled(a.parent, mine.id);
    const toChild = await change(a.parent, master, { customerUserId: a.childId });
    expect(toChild.statusCode).toBe(422);
    expect(toChild.json().errors[0].message).toBe(bookingMessages.cannotMove);
    const toClass = await change(a.parent, master, { occurrenceId: other.id });
    expect(toClass.statusCode).toBe(422);
    const toOrg = await change(a.parent, master, { orgId: b.org.id });
    expect(toOrg.statusCode).toBe(422);
    const gone = await change(a.parent, master, { _deleted: true });
    expect(gone.statusCode).toBe(422);
    expect(gone.json().errors[0].message).toBe(bookingMessages.cannotDelete);
    // Staff cannot delete either (a delete would leave the place counted).
    expect((await change(a.manager, master, { _deleted: true })).statusCode).toBe(422);
    expect(await stored(mine.id)).toMatchObject({
      status: 'booked',
      customerUserId: a.parent.id,
      occurrenceId: occurrence.id,
      deleted: false,
    });
    expect(await counts(other.id)).toEqual({ booked: 0, waiting: 0 });
  });

  it('keeps an appointment off a class booking that holds a place', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id);
    const mine = booking(a.org.id, a.parent.id, { occurrenceId: occurrence.id });
    await pushNew(a.parent, [mine]);
    const master = await pulled(a.parent, mine.id);
    expect(master.status).toBe('booked');
    const res = await change(a.parent, master, {
      appointment: {
        typeId: randomUUID(),
        staffUserId: a.manager.id,
        startsAt: new Date(Date.now() + 86_400_000).toISOString(),
      },
    });
    // Either refused, or the appointment is not stored on a class place.
    if (res.statusCode === 200) expect((await stored(mine.id))?.appointment ?? null).toBeNull();
    else expect(res.statusCode).toBe(422);
  });

  // ---------------------------------------------------------------------------------------
  // Credits: the cut-off, double refunds, asking again
  // ---------------------------------------------------------------------------------------

  // A device's stamp is believed for an offline cancellation (decision 0066: the credit at stake
  // is one class), but never earlier than the booking's verdict — the bound tried here.
  it('refuses a late cancellation stamped before the booking was even decided', async () => {
    const customer = await freshCustomer();
    const { groupId, balance } = await creditsFor(customer.id, 1);
    const { occurrence } = await insertOccurrence(t.db, a.org.id, {
      punchCardGroupIds: [groupId],
    });
    const mine = booking(a.org.id, customer.id, { occurrenceId: occurrence.id });
    await pushNew(customer, [mine]);
    expect(await stored(mine.id)).toMatchObject({ status: 'booked', paidWith: 'credit' });
    expect(await balance()).toBe(0);
    // Booked half an hour ago, after the cut-off (an hour ago); the class starts in an hour.
    const now = Date.now();
    await t.db
      .update(bookings)
      .set({ decidedAt: new Date(now - 1_800_000) })
      .where(eq(bookings.id, mine.id));
    await t.db
      .update(classOccurrences)
      .set({
        startsAt: new Date(now + 3_600_000),
        endsAt: new Date(now + 7_200_000),
        cancelBy: new Date(now - 3_600_000),
      })
      .where(eq(classOccurrences.id, occurrence.id));
    const master = await pulled(customer, mine.id);
    // The device's clock set back two hours: the cancellation claims it was made in time.
    const res = await change(customer, master, {
      status: 'cancelled',
      updatedAt: new Date(now - 2 * 3_600_000).toISOString(),
    });
    expect(res.statusCode, 'backdated late cancellation accepted').toBe(422);
    expect(await balance()).toBe(0);
  });

  it('refuses cancelling a place after the class has ended, for a credit back', async () => {
    const customer = await freshCustomer();
    const { groupId, balance } = await creditsFor(customer.id, 1);
    const { occurrence } = await insertOccurrence(t.db, a.org.id, {
      punchCardGroupIds: [groupId],
    });
    const mine = booking(a.org.id, customer.id, { occurrenceId: occurrence.id });
    await pushNew(customer, [mine]);
    expect(await balance()).toBe(0);
    // Booked a week ago; the class ran yesterday (nobody checked them in).
    const now = Date.now();
    await t.db
      .update(bookings)
      .set({ decidedAt: new Date(now - 7 * 86_400_000) })
      .where(eq(bookings.id, mine.id));
    await t.db
      .update(classOccurrences)
      .set({
        startsAt: new Date(now - 86_400_000),
        endsAt: new Date(now - 86_400_000 + 3_600_000),
        cancelBy: new Date(now - 86_400_000 - 2 * 3_600_000),
      })
      .where(eq(classOccurrences.id, occurrence.id));
    const master = await pulled(customer, mine.id);
    const res = await change(customer, master, {
      status: 'cancelled',
      updatedAt: new Date(now - 3 * 86_400_000).toISOString(),
    });
    expect(res.statusCode, 'cancellation of a finished class accepted').toBe(422);
    expect(await balance()).toBe(0);
    expect((await stored(mine.id))?.status).toBe('booked');
  });

  it('refuses an honest cancellation after the cut-off (no credit back)', async () => {
    const customer = await freshCustomer();
    const { groupId, balance } = await creditsFor(customer.id, 1);
    const startsAt = new Date(Date.now() + 3_600_000);
    const { occurrence } = await insertOccurrence(t.db, a.org.id, {
      startsAt,
      cancelBy: new Date(startsAt.getTime() - 2 * 3_600_000),
      punchCardGroupIds: [groupId],
    });
    const mine = booking(a.org.id, customer.id, { occurrenceId: occurrence.id });
    await pushNew(customer, [mine]);
    const master = await pulled(customer, mine.id);
    expect(master.status).toBe('booked');
    expect((await change(customer, master, { status: 'cancelled' })).statusCode).toBe(422);
    expect(await balance()).toBe(0);
  });

  it('gives one credit back however often, and however concurrently, a place is cancelled', async () => {
    const customer = await freshCustomer();
    const { groupId, balance } = await creditsFor(customer.id, 1);
    const { occurrence } = await insertOccurrence(t.db, a.org.id, {
      punchCardGroupIds: [groupId],
    });
    const mine = booking(a.org.id, customer.id, { occurrenceId: occurrence.id });
    await pushNew(customer, [mine]);
    expect(await balance()).toBe(0);
    const master = await pulled(customer, mine.id);
    // Two devices cancel at once from the same master; then again from the cancelled state.
    const answers = await Promise.all([
      change(customer, master, { status: 'cancelled' }),
      change(customer, master, { status: 'cancelled' }),
      change(a.manager, master, { status: 'cancelled' }),
    ]);
    expect(answers.every((res) => res.statusCode === 200)).toBe(true);
    const cancelled = await pulled(customer, mine.id);
    expect(cancelled.status).toBe('cancelled');
    await change(customer, cancelled, { status: 'cancelled' });
    await change(a.manager, cancelled, { status: 'cancelled' });
    expect(await balance()).toBe(1);
    expect(await counts(occurrence.id)).toEqual({ booked: 0, waiting: 0 });
  });

  it('never nets a credit by asking again under the same booking id after cancelling', async () => {
    const customer = await freshCustomer();
    const { groupId, balance } = await creditsFor(customer.id, 1);
    const { occurrence } = await insertOccurrence(t.db, a.org.id, {
      punchCardGroupIds: [groupId],
    });
    const { occurrence: second } = await insertOccurrence(t.db, a.org.id, {
      punchCardGroupIds: [groupId],
    });
    const mine = booking(a.org.id, customer.id, { occurrenceId: occurrence.id });
    await pushNew(customer, [mine]);
    for (let round = 0; round < 3; round++) {
      const held = await pulled(customer, mine.id);
      expect(held).toMatchObject({ status: 'booked', paidWith: 'credit' });
      expect(await balance()).toBe(0);
      expect((await change(customer, held, { status: 'cancelled' })).statusCode).toBe(200);
      expect(await balance()).toBe(1);
      const cancelled = await pulled(customer, mine.id);
      // Asking again with the same id (and a staff cancel racing it) spends the credit again.
      const again = await change(customer, cancelled, { status: 'requested' });
      expect(again.statusCode).toBe(200);
    }
    expect(await balance()).toBe(0);
    // No credit left: a second class is refused, and staff cancelling the first gives one back.
    const other = booking(a.org.id, customer.id, { occurrenceId: second.id });
    await pushNew(customer, [other]);
    expect((await stored(other.id))?.status).toBe('refused');
    const held = await pulled(customer, mine.id);
    await change(a.manager, held, { status: 'cancelled' });
    expect(await balance()).toBe(1);
    const again = await change(a.manager, await pulled(customer, mine.id), {
      status: 'cancelled',
    });
    expect(again.statusCode).toBe(200);
    expect(await balance()).toBe(1);
  });

  it('refuses a second place for the same person on one class time, in one push or two', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id);
    const first = booking(a.org.id, a.parent.id, { occurrenceId: occurrence.id });
    const second = booking(a.org.id, a.parent.id, { occurrenceId: occurrence.id });
    await pushNew(a.parent, [first, second]);
    const third = booking(a.org.id, a.parent.id, { occurrenceId: occurrence.id });
    await pushNew(a.parent, [third]);
    const statuses = await Promise.all([first, second, third].map(async (d) => stored(d.id)));
    expect(statuses.filter((row) => row?.status === 'booked')).toHaveLength(1);
    expect(await counts(occurrence.id)).toEqual({ booked: 1, waiting: 0 });
  });

  // ---------------------------------------------------------------------------------------
  // Staff and the schedule routes
  // ---------------------------------------------------------------------------------------

  it('keeps staff without manage-schedule, customers and other organisations out of bookings and the schedule', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id);
    // Staff without the claim cannot push bookings (not even for a real customer).
    const noClaim = await pushNew(a.staff, [
      booking(a.org.id, a.parent.id, { occurrenceId: occurrence.id }),
    ]);
    expect(noClaim.statusCode).toBeGreaterThanOrEqual(400);
    expect(noClaim.statusCode).toBeLessThan(500);
    for (const who of [a.staff, a.parent, b.parent]) {
      expect((await call(who, 'GET', '/api/schedule/settings')).statusCode).toBe(403);
      expect(
        (await call(who, 'PUT', '/api/schedule/settings', { cancelCutoffHours: 0 })).statusCode,
      ).toBe(403);
      expect(
        (await call(who, 'PATCH', `/api/schedule/occurrences/${occurrence.id}`, { capacity: 500 }))
          .statusCode,
      ).toBe(403);
    }
    // Another organisation's manager: 404, and their settings change only their own.
    for (const edit of [{ cancelled: true }, { capacity: 500 }, { location: 'Elsewhere' }]) {
      expect(
        (await call(b.manager, 'PATCH', `/api/schedule/occurrences/${occurrence.id}`, edit))
          .statusCode,
      ).toBe(404);
    }
    expect(
      (await call(b.manager, 'PUT', '/api/schedule/settings', { cancelCutoffHours: 0 })).statusCode,
    ).toBe(200);
    const [after] = await t.db
      .select()
      .from(classOccurrences)
      .where(eq(classOccurrences.id, occurrence.id));
    expect(after).toMatchObject({
      status: 'scheduled',
      capacity: 10,
      location: occurrence.location,
    });
    expect(after?.cancelBy.getTime()).toBe(occurrence.cancelBy.getTime());
    // Org B's manager pushes a cancellation of an org A booking: out of reach.
    const mine = booking(a.org.id, a.parent.id, { occurrenceId: occurrence.id });
    await pushNew(a.parent, [mine]);
    const master = await pulled(a.parent, mine.id);
    expect((await change(b.manager, master, { status: 'cancelled' })).statusCode).toBe(422);
    expect(
      (await change(a.staff, master, { status: 'cancelled' })).statusCode,
    ).toBeGreaterThanOrEqual(400);
    expect((await stored(mine.id))?.status).toBe('booked');
  });

  it('refuses anyone writing the timetable by replication (places, capacity)', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { capacity: 1 });
    await waitForVisibility(t.db);
    const pulledTimes = await t.app.inject({
      method: 'GET',
      url: '/api/sync/occurrences/pull?batchSize=1000',
      headers: a.parent.jar.headers(),
    });
    const doc = (pulledTimes.json() as { documents: Doc[] }).documents.find(
      (d) => d.id === occurrence.id,
    );
    expect(doc).toBeDefined();
    for (const who of [a.parent, a.manager]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/sync/occurrences/push',
        headers: who.jar.headers(),
        payload: [
          {
            assumedMasterState: doc,
            newDocumentState: {
              ...doc,
              capacity: 1000,
              bookedCount: 0,
              updatedAt: new Date().toISOString(),
            },
          },
        ],
      });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
    expect((await counts(occurrence.id))?.booked).toBe(0);
    const [row] = await t.db
      .select()
      .from(classOccurrences)
      .where(eq(classOccurrences.id, occurrence.id));
    expect(row?.capacity).toBe(1);
  });

  // ---------------------------------------------------------------------------------------
  // The calendar feed
  // ---------------------------------------------------------------------------------------

  it('keeps each family’s calendar feed its own, ends it when revoked, and limits guessing', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { title: 'Other family yoga' });
    await pushNew(a.other, [booking(a.org.id, a.otherCustomerId, { occurrenceId: occurrence.id })]);
    const theirs = (await call(a.other, 'POST', '/api/schedule/calendar-feed')).json() as {
      url: string;
    };
    // Another customer asking for "the" feed gets their own state, never another's URL.
    const mine = (await call(a.parent, 'GET', '/api/schedule/calendar-feed')).json() as {
      url: string | null;
    };
    expect(mine.url).toBeNull();
    const made = (await call(a.parent, 'POST', '/api/schedule/calendar-feed')).json() as {
      url: string;
    };
    expect(made.url).not.toBe(theirs.url);
    const body = (await t.app.inject({ method: 'GET', url: new URL(made.url).pathname })).body;
    expect(body).not.toContain('Other family yoga');
    // Staff of the organisation and signed-out callers get no feed.
    expect((await call(a.manager, 'POST', '/api/schedule/calendar-feed')).statusCode).toBe(403);
    expect((await call(null, 'GET', '/api/schedule/calendar-feed')).statusCode).toBe(401);
    // Revoked: the old token answers 404; a token-shaped guess, path tricks and the hash too.
    const token = new URL(theirs.url).pathname.slice(5, -4);
    expect((await call(a.other, 'DELETE', '/api/schedule/calendar-feed')).statusCode).toBe(204);
    const address = '10.99.1.1';
    const get = (url: string) => t.app.inject({ method: 'GET', url, remoteAddress: address });
    expect((await get(`/ics/${token}.ics`)).statusCode).toBe(404);
    expect((await get(`/ics/${token.toUpperCase()}.ics`)).statusCode).toBe(404);
    expect((await get(`/ics/${token.slice(0, 20)}.ics`)).statusCode).toBe(404);
    for (const bad of ["/ics/'%20or%201=1--.ics", '/ics/..%2F..%2Fetc%2Fpasswd.ics', '/ics/x.ics'])
      expect((await get(bad)).statusCode).toBeLessThan(500);
    // Guessing from one address is bounded.
    let limited = false;
    for (let i = 0; i < 130 && !limited; i++) {
      const res = await get(`/ics/${randomUUID().replaceAll('-', '')}guess.ics`);
      if (res.statusCode === 429) limited = true;
      else expect(res.statusCode).toBe(404);
    }
    expect(limited).toBe(true);
  });

  // ---------------------------------------------------------------------------------------
  // Malformed input
  // ---------------------------------------------------------------------------------------

  it('answers malformed ids and oversized pushes without a 500', async () => {
    const odd = [
      'not-a-uuid',
      "x' or '1'='1",
      randomUUID().toUpperCase(),
      '0'.repeat(100),
      '\u0000null',
      '{"$ne":null}',
    ];
    for (const occurrenceId of odd) {
      const doc = booking(a.org.id, a.parent.id, { occurrenceId });
      const res = await pushNew(a.parent, [doc]);
      expect(res.statusCode, JSON.stringify(occurrenceId)).toBeLessThan(500);
      if (res.statusCode === 200)
        expect((await stored(doc.id))?.status, occurrenceId).toBe('refused');
    }
    const long = await pushNew(a.parent, [
      booking(a.org.id, a.parent.id, { occurrenceId: 'x'.repeat(101) }),
    ]);
    expect(long.statusCode).toBe(422);
    const upperId = await pushNew(a.parent, [
      booking(a.org.id, a.parent.id, { id: randomUUID().toUpperCase() }),
    ]);
    expect(upperId.statusCode).toBe(422);
    // More rows than a push may carry.
    const { occurrence } = await insertOccurrence(t.db, a.org.id);
    const many = Array.from({ length: 1001 }, () =>
      booking(a.org.id, a.parent.id, { occurrenceId: occurrence.id }),
    );
    const tooMany = await pushNew(a.parent, many);
    expect(tooMany.statusCode).toBeGreaterThanOrEqual(400);
    expect(tooMany.statusCode).toBeLessThan(500);
    // A full batch of requests for one class: one place, the rest refused, no 500.
    const batch = Array.from({ length: 300 }, () =>
      booking(a.org.id, a.parent.id, { occurrenceId: occurrence.id }),
    );
    const big = await pushNew(a.parent, batch);
    expect(big.statusCode).toBe(200);
    expect(await counts(occurrence.id)).toEqual({ booked: 1, waiting: 0 });
    // Schedule routes: bad ids, bad bodies, huge bodies.
    for (const id of ['not-an-id', randomUUID().toUpperCase(), '%00'])
      expect(
        (await call(a.manager, 'PATCH', `/api/schedule/occurrences/${id}`, { cancelled: true }))
          .statusCode,
        id.slice(0, 20),
      ).toBe(400);
    // An address too long for the server is answered 414 before any route runs.
    const longPath = await call(
      a.manager,
      'PATCH',
      `/api/schedule/occurrences/${'x'.repeat(5000)}`,
      {
        cancelled: true,
      },
    );
    expect([400, 414]).toContain(longPath.statusCode);
    expect(
      (await call(a.manager, 'PATCH', `/api/schedule/occurrences/${randomUUID()}`, { capacity: 1 }))
        .statusCode,
    ).toBe(404);
    for (const body of [
      { capacity: -1 },
      { capacity: 1e12 },
      { start: 'yesterday' },
      { durationMinutes: 0 },
      { location: 'x'.repeat(100_000) },
      { coachUserId: 'nobody' },
    ])
      expect(
        (await call(a.manager, 'PATCH', `/api/schedule/occurrences/${occurrence.id}`, body))
          .statusCode,
        JSON.stringify(body).slice(0, 40),
      ).toBe(400);
    const huge = await t.app.inject({
      method: 'PUT',
      url: '/api/schedule/settings',
      headers: { ...a.manager.jar.headers(), 'content-type': 'application/json' },
      payload: `{"cancelCutoffHours":2,"pad":"${'x'.repeat(2_000_000)}"}`,
    });
    expect(huge.statusCode).toBe(413);
  });
});
