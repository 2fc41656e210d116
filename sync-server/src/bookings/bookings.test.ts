import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  bookings,
  classOccurrences,
  products,
  punchCardCredits,
  subscriptions,
} from '@platform/schema/db';
import { bookingMessages, pastCutoffMessage } from '@platform/schema/bookings/booking.rules';
import { appointmentMessages } from '@platform/schema/schedule/appointments.zod';
import { insertOccurrence } from '../testing/schedule-fixtures.ts';
import {
  booking,
  insertCustomers,
  pulledAs,
  pushAs,
  pushNewAs,
  seedSyncOrg,
  type Person,
} from '../testing/sync-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

describe.each(testDatabaseKinds)('booking a class time on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;
  let b: Awaited<ReturnType<typeof seedSyncOrg>>;

  const push = (who: Person, rows: unknown) => pushAs(t, who, 'bookings', rows);
  const pushNew = (who: Person, docs: object[]) => pushNewAs(t, who, 'bookings', docs);
  const stored = async (id: string) => {
    const [row] = await t.db.select().from(bookings).where(eq(bookings.id, id));
    return row!;
  };
  const counts = async (id: string) => {
    const [row] = await t.db
      .select({ booked: classOccurrences.bookedCount, waiting: classOccurrences.waitlistCount })
      .from(classOccurrences)
      .where(eq(classOccurrences.id, id));
    return row!;
  };
  /** The document as the device holds it after the verdict replicated back. */
  const pulled = (who: Person, id: string) => pulledAs(t, who, 'bookings', id);
  /** Customers of `a`'s organisation, each with nothing but a membership. */
  const customers = (n: number) => insertCustomers(t.db, a.org.id, n);

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await seedSyncOrg(t.app, t.db);
    b = await seedSyncOrg(t.app, t.db);
  });
  afterAll(async () => t?.close());

  it('books exactly 10 of 20 people asking at once for 10 places, and waitlists the other 10 in order', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { capacity: 10 });
    const people = await customers(20);
    const requests = people.map((id) =>
      booking(a.org.id, id, { occurrenceId: occurrence.id, joinWaitlist: true }),
    );
    // Twenty pushes in flight together (staff adding people, as the front desk would).
    const answers = await Promise.all(requests.map((doc) => pushNew(a.manager, [doc])));
    expect(answers.map((res) => res.statusCode)).toEqual(requests.map(() => 200));
    const rows = await Promise.all(requests.map((doc) => stored(doc.id)));
    const booked = rows.filter((row) => row.status === 'booked');
    const waiting = rows.filter((row) => row.status === 'waitlisted');
    expect(booked).toHaveLength(10);
    expect(waiting).toHaveLength(10);
    expect(await counts(occurrence.id)).toEqual({ booked: 10, waiting: 10 });
    // Everyone booked was decided before everyone waiting: whoever reached the server first.
    const lastBooked = Math.max(...booked.map((row) => row.decidedAt!.getTime()));
    const firstWaiting = Math.min(...waiting.map((row) => row.decidedAt!.getTime()));
    expect(lastBooked).toBeLessThanOrEqual(firstWaiting);
  });

  it.runIf(kind === 'postgres')(
    'never gives more places than a class has, over 150 rounds of 4 people racing for 2',
    async () => {
      const people = await customers(4);
      for (let round = 0; round < 150; round++) {
        const { occurrence } = await insertOccurrence(t.db, a.org.id, { capacity: 2 });
        const docs = people.map((id) => booking(a.org.id, id, { occurrenceId: occurrence.id }));
        const answers = await Promise.all(docs.map((doc) => pushNew(a.manager, [doc])));
        expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200, 200]);
        const rows = await Promise.all(docs.map((doc) => stored(doc.id)));
        expect(rows.filter((row) => row.status === 'booked')).toHaveLength(2);
        expect(await counts(occurrence.id)).toEqual({ booked: 2, waiting: 0 });
      }
    },
    60_000,
  );

  it('refuses the people a full class has no place for when they did not ask to wait', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { capacity: 3 });
    const people = await customers(8);
    const requests = people.map((id) => booking(a.org.id, id, { occurrenceId: occurrence.id }));
    await Promise.all(requests.map((doc) => pushNew(a.manager, [doc])));
    const rows = await Promise.all(requests.map((doc) => stored(doc.id)));
    expect(rows.filter((row) => row.status === 'booked')).toHaveLength(3);
    const refused = rows.filter((row) => row.status === 'refused');
    expect(refused).toHaveLength(5);
    expect(new Set(refused.map((row) => row.refusal))).toEqual(new Set([bookingMessages.full]));
    expect(await counts(occurrence.id)).toEqual({ booked: 3, waiting: 0 });
  });

  it('gives the last place to whichever of two offline devices syncs first, and tells the other why', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { capacity: 1 });
    // The other customer asked earlier on their phone, but the parent's phone synced first.
    const theirs = booking(a.org.id, a.otherCustomerId, {
      occurrenceId: occurrence.id,
      requestedAt: '2026-11-23T08:00:00.000Z',
      updatedAt: '2026-11-23T08:00:00.000Z',
    });
    const ours = booking(a.org.id, a.parent.id, {
      occurrenceId: occurrence.id,
      requestedAt: '2026-11-23T08:30:00.000Z',
      updatedAt: '2026-11-23T08:30:00.000Z',
    });
    expect((await pushNew(a.parent, [ours])).statusCode).toBe(200);
    expect((await pushNew(a.other, [theirs])).statusCode).toBe(200);
    expect(await pulled(a.parent, ours.id)).toMatchObject({ status: 'booked', paidWith: 'free' });
    const refused = await pulled(a.other, theirs.id);
    expect(refused).toMatchObject({ status: 'refused', refusal: bookingMessages.full });
    // The request keeps the time it was made offline.
    expect(refused.requestedAt).toBe('2026-11-23T08:00:00.000Z');
    // Offered the waitlist, they take it: asking again with the waitlist.
    const again = {
      ...refused,
      status: 'requested',
      joinWaitlist: true,
      updatedAt: new Date().toISOString(),
    };
    const res = await push(a.other, [{ assumedMasterState: refused, newDocumentState: again }]);
    expect(res.json()).toEqual([]);
    expect(await pulled(a.other, theirs.id)).toMatchObject({ status: 'waitlisted', refusal: null });
  });

  it('moves the first person waiting into a freed place and queues their notice', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { capacity: 1 });
    const [first, second, third] = await customers(3);
    const docs = [first!, second!, third!].map((id) =>
      booking(a.org.id, id, { occurrenceId: occurrence.id, joinWaitlist: true }),
    );
    for (const doc of docs) await pushNew(a.manager, [doc]);
    expect((await stored(docs[0]!.id)).status).toBe('booked');
    const master = await pulled(a.manager, docs[0]!.id);
    const cancel = { ...master, status: 'cancelled', updatedAt: new Date().toISOString() };
    expect(
      (await push(a.manager, [{ assumedMasterState: master, newDocumentState: cancel }])).json(),
    ).toEqual([]);
    expect((await stored(docs[1]!.id)).status).toBe('booked');
    expect((await stored(docs[2]!.id)).status).toBe('waitlisted');
    expect(await counts(occurrence.id)).toEqual({ booked: 1, waiting: 1 });
    const rows = await t.db.execute<{ data: { bookingIds: string[]; kind: string } }>(
      `select data from pgboss.job where name = 'booking-notice'` as never,
    );
    const notices = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as Array<{
      data: { bookingIds: string[]; kind: string };
    }>;
    expect(
      notices.some((n) => n.data.kind === 'promoted' && n.data.bookingIds.includes(docs[1]!.id)),
    ).toBe(true);
  });

  it('takes a punch-card credit for a place, refuses without one, and gives it back on a timely cancellation', async () => {
    const groupId = randomUUID();
    const [pack] = await t.db
      .insert(products)
      .values({
        orgId: a.org.id,
        name: '5-class pack',
        type: 'one-time',
        schedule: 'one-time',
        priceMinor: 5_000,
        processorProductId: 'prod_sandbox_pack',
        punchCardConfiguration: { groups: [{ id: groupId, name: 'Classes', credits: 1 }] },
      })
      .returning();
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { punchCardGroupIds: [groupId] });
    const [holder, without] = await customers(2);
    await t.db.insert(punchCardCredits).values({
      orgId: a.org.id,
      customerUserId: holder!,
      productId: pack!.id,
      productName: pack!.name,
      groupId,
      groupName: 'Classes',
      delta: 1,
      reason: 'import',
    });
    const balance = async (userId: string) =>
      (
        await t.db
          .select({ delta: punchCardCredits.delta })
          .from(punchCardCredits)
          .where(
            and(eq(punchCardCredits.customerUserId, userId), eq(punchCardCredits.groupId, groupId)),
          )
      ).reduce((sum, row) => sum + row.delta, 0);

    const mine = booking(a.org.id, holder!, { occurrenceId: occurrence.id });
    await pushNew(a.manager, [mine]);
    expect(await stored(mine.id)).toMatchObject({
      status: 'booked',
      paidWith: 'credit',
      creditGroupId: groupId,
    });
    expect(await balance(holder!)).toBe(0);
    // A customer holding no credit is refused; staff adding someone settle it at the desk.
    const theirs = booking(a.org.id, a.parent.id, { occurrenceId: occurrence.id });
    await pushNew(a.parent, [theirs]);
    expect(await stored(theirs.id)).toMatchObject({
      status: 'refused',
      refusal: bookingMessages.notEntitled,
    });
    const atDesk = booking(a.org.id, without!, { occurrenceId: occurrence.id });
    await pushNew(a.manager, [atDesk]);
    expect(await stored(atDesk.id)).toMatchObject({ status: 'booked', paidWith: 'desk' });
    expect(await balance(without!)).toBe(0);

    // Asking again for the same class while holding a place is refused, and takes nothing.
    const twice = booking(a.org.id, holder!, { occurrenceId: occurrence.id });
    await pushNew(a.manager, [twice]);
    expect(await stored(twice.id)).toMatchObject({
      status: 'refused',
      refusal: bookingMessages.alreadyBooked,
    });

    const master = await pulled(a.manager, mine.id);
    await push(a.manager, [
      {
        assumedMasterState: master,
        newDocumentState: { ...master, status: 'cancelled', updatedAt: new Date().toISOString() },
      },
    ]);
    expect(await balance(holder!)).toBe(1);
    expect(await counts(occurrence.id)).toEqual({ booked: 1, waiting: 0 });
  });

  it('lets a subscription that includes the class pay for it', async () => {
    const [membership] = await t.db
      .insert(products)
      .values({
        orgId: a.org.id,
        name: 'Unlimited',
        type: 'recurring',
        schedule: 'month',
        priceMinor: 9_900,
        processorProductId: 'prod_sandbox_unlimited',
      })
      .returning();
    const { occurrence } = await insertOccurrence(t.db, a.org.id, {
      entitlingProductIds: [membership!.id],
      priceMinor: 2_000,
    });
    const [member] = await customers(1);
    await t.db.insert(subscriptions).values({
      orgId: a.org.id,
      customerUserId: member!,
      productId: membership!.id,
      productName: 'Unlimited',
      priceMinor: 9_900,
      status: 'active',
      startedOn: '2026-01-01',
    } as typeof subscriptions.$inferInsert);
    const theirs = booking(a.org.id, member!, { occurrenceId: occurrence.id });
    await pushNew(a.manager, [theirs]);
    const other = booking(a.org.id, a.parent.id, { occurrenceId: occurrence.id });
    await pushNew(a.parent, [other]);
    expect(await stored(theirs.id)).toMatchObject({ status: 'booked', paidWith: 'subscription' });
    // Nothing they hold includes it and it has a price: paid at booking, online.
    expect(await stored(other.id)).toMatchObject({
      status: 'refused',
      refusal: bookingMessages.payAtBooking,
    });
  });

  it('refuses a customer’s cancellation of a place after the cut-off, and lets staff cancel', async () => {
    const startsAt = new Date(Date.now() + 3_600_000);
    const { occurrence } = await insertOccurrence(t.db, a.org.id, {
      startsAt,
      cancelBy: new Date(startsAt.getTime() - 2 * 3_600_000),
    });
    const mine = booking(a.org.id, a.parent.id, { occurrenceId: occurrence.id });
    await pushNew(a.parent, [mine]);
    const master = await pulled(a.parent, mine.id);
    expect(master.status).toBe('booked');
    const cancel = { ...master, status: 'cancelled', updatedAt: new Date().toISOString() };
    const late = await push(a.parent, [{ assumedMasterState: master, newDocumentState: cancel }]);
    expect(late.statusCode).toBe(422);
    expect(late.json().errors[0].message).toBe(pastCutoffMessage(2));
    expect(
      (await push(a.manager, [{ assumedMasterState: master, newDocumentState: cancel }])).json(),
    ).toEqual([]);
    expect((await stored(mine.id)).status).toBe('cancelled');
  });

  it('lets a guardian book their child, and nobody book a stranger or another organisation’s class', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id);
    const { occurrence: elsewhere } = await insertOccurrence(t.db, b.org.id);
    const forChild = booking(a.org.id, a.childId, { occurrenceId: occurrence.id });
    expect((await pushNew(a.parent, [forChild])).json()).toEqual([]);
    expect((await stored(forChild.id)).status).toBe('booked');
    // Someone else's child, or another customer: not theirs to book.
    const stranger = await pushNew(a.parent, [
      booking(a.org.id, a.otherCustomerId, { occurrenceId: occurrence.id }),
    ]);
    expect(stranger.statusCode).toBe(422);
    // Another organisation's class time, named by its id: no such class here.
    const across = booking(a.org.id, a.parent.id, { occurrenceId: elsewhere.id });
    await pushNew(a.parent, [across]);
    expect(await stored(across.id)).toMatchObject({
      status: 'refused',
      refusal: bookingMessages.noSuchClass,
    });
    expect(await counts(elsewhere.id)).toEqual({ booked: 0, waiting: 0 });
    // Another organisation's staff cannot push into this organisation at all.
    const foreign = await pushNew(b.manager, [
      booking(a.org.id, a.parent.id, { occurrenceId: occurrence.id }),
    ]);
    expect(foreign.statusCode).toBe(422);
  });

  it('refuses what only the server decides', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { capacity: 1 });
    const placed = await pushNew(a.parent, [
      booking(a.org.id, a.parent.id, {
        occurrenceId: occurrence.id,
        status: 'booked',
        paidWith: 'free',
      }),
    ]);
    expect(placed.statusCode).toBe(422);
    expect(placed.json().errors[0].message).toBe(bookingMessages.newMustRequest);
    // A device's claim to have paid is ignored: the server sets the payment.
    const sly = booking(a.org.id, a.parent.id, {
      occurrenceId: occurrence.id,
      paidWith: 'subscription',
      refusal: 'x',
    });
    await pushNew(a.parent, [sly]);
    expect(await stored(sly.id)).toMatchObject({
      status: 'booked',
      paidWith: 'free',
      refusal: null,
    });
    // An appointment of a type the organisation does not offer is refused in words.
    const appointment = booking(a.org.id, a.parent.id, {
      occurrenceId: crypto.randomUUID(),
      appointment: {
        typeId: crypto.randomUUID(),
        staffUserId: a.manager.id,
        startsAt: new Date().toISOString(),
      },
    });
    await pushNew(a.parent, [appointment]);
    expect(await stored(appointment.id)).toMatchObject({
      status: 'refused',
      refusal: appointmentMessages.typeGone,
    });
    const master = await pulled(a.parent, sly.id);
    const checkIn = { ...master, status: 'attended', updatedAt: new Date().toISOString() };
    const self = await push(a.parent, [{ assumedMasterState: master, newDocumentState: checkIn }]);
    expect(self.statusCode).toBe(422);
    expect(self.json().errors[0].message).toBe(bookingMessages.customerStatus);
    expect(
      (await push(a.manager, [{ assumedMasterState: master, newDocumentState: checkIn }])).json(),
    ).toEqual([]);
    expect((await stored(sly.id)).checkedInAt).not.toBeNull();
  });
});
