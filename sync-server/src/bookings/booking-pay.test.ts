import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import {
  bookingPayments,
  bookings,
  products,
  sandboxCharges,
  sandboxRefunds,
  subscriptions,
} from '@platform/schema/db';
import { bookingPayMessages } from '@platform/schema/bookings/booking-pay.zod';
import { bookingMessages } from '@platform/schema/bookings/booking.rules';
import { bookingPaymentTexts } from '../payments/booking-payment-notice.service.ts';
import { queueBookingRefunds } from '../payments/booking-payments.service.ts';
import { sandboxMessages } from '../adapters/payments/sandbox-cards.ts';
import { addMembership, insertTestUser, linkChild } from '../testing/auth-fixtures.ts';
import { drainJobs, settledEmailsTo } from '../testing/job-fixtures.ts';
import { insertOccurrence } from '../testing/schedule-fixtures.ts';
import {
  booking,
  pullAs,
  pulledAs,
  pushAs,
  pushNewAs,
  seedSyncOrg,
  signedInCustomer,
  type Person,
} from '../testing/sync-fixtures.ts';
import { payCards, payOrder } from '../testing/booking-pay-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

const { visa, declining } = payCards;

// Issue 16 "paid at booking through the payments issue's charge flow" (decision 0070): paid by
// card online first, then the booking request; the decision uses the payment once, and money
// for a place not kept goes back through the job queue.
describe.each(testDatabaseKinds)('paying for a place at booking on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;
  let b: Awaited<ReturnType<typeof seedSyncOrg>>;

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await seedSyncOrg(t.app, t.db);
    b = await seedSyncOrg(t.app, t.db);
  });
  afterAll(async () => t?.close());

  const customer = (orgId = a.org.id) => signedInCustomer(t.app, t.db, orgId);
  const pay = (who: Person, body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/bookings/pay',
      headers: who.jar.headers(),
      payload: { orgId: a.org.id, ...body },
    });
  const order = payOrder;
  const push = (who: Person, rows: unknown) => pushAs(t, who, 'bookings', rows);
  const request = (who: Person, doc: object) => pushNewAs(t, who, 'bookings', [doc]);
  const stored = async (id: string) =>
    (await t.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
  const paymentsOf = (bookingId: string) =>
    t.db.select().from(bookingPayments).where(eq(bookingPayments.bookingId, bookingId));
  const chargesFor = async (bookingId: string) => {
    const ids = (await paymentsOf(bookingId)).map((p) => p.id);
    const all = await t.db.select().from(sandboxCharges);
    return all.filter((c) =>
      ids.some((id) => c.idempotencyKey.startsWith(`booking-payment:${id}:`)),
    );
  };
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
  const pulled = (who: Person, id: string) => pulledAs(t, who, 'bookings', id);

  it('pays once for a priced class, then books it with that payment', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 1_500 });
    const me = await customer();
    const doc = booking(a.org.id, me.id, { occurrenceId: occurrence.id });
    const body = { ...order(doc.id, me.id, occurrence.id), card: visa };
    const paid = await pay(me, body);
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toEqual({ paid: true, amountMinor: 1_500, currency: 'USD' });
    // Pay sent again (a double click, a retry): the same payment, nothing charged twice.
    expect((await pay(me, body)).json()).toEqual(paid.json());
    expect(await chargesFor(doc.id)).toHaveLength(1);

    expect((await request(me, doc)).json()).toEqual([]);
    expect(await stored(doc.id)).toMatchObject({ status: 'booked', paidWith: 'card' });
    expect(await paymentsOf(doc.id)).toMatchObject([{ status: 'used', amountMinor: 1_500 }]);
    expect((await pulled(me, doc.id)).paidWith).toBe('card');
  });

  it('says a declined card was declined and takes another under the next attempt', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 2_000 });
    const me = await customer();
    const doc = booking(a.org.id, me.id, { occurrenceId: occurrence.id });
    const body = order(doc.id, me.id, occurrence.id);
    const declined = await pay(me, { ...body, card: declining });
    expect(declined.json()).toEqual({ paid: false, message: sandboxMessages.declined });
    // Not paid: the request is refused as any unpaid one.
    const early = booking(a.org.id, me.id, { occurrenceId: occurrence.id });
    await request(me, early);
    expect(await stored(early.id)).toMatchObject({
      status: 'refused',
      refusal: bookingMessages.payAtBooking,
    });
    expect((await pay(me, { ...body, card: visa })).json()).toMatchObject({ paid: true });
    const charges = await chargesFor(doc.id);
    expect(charges.map((c) => [c.idempotencyKey.split(':')[2], c.outcome]).sort()).toEqual([
      ['1', 'declined'],
      ['2', 'succeeded'],
    ]);
    await request(me, doc);
    expect(await stored(doc.id)).toMatchObject({ status: 'booked', paidWith: 'card' });
  });

  it('refunds a payment whose request found the class full, and never waitlists it', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, {
      priceMinor: 1_000,
      capacity: 1,
    });
    const [first, second] = [await customer(), await customer()];
    const mine = booking(a.org.id, first.id, { occurrenceId: occurrence.id });
    const theirs = booking(a.org.id, second.id, {
      occurrenceId: occurrence.id,
      joinWaitlist: true,
    });
    // Both pay while a place is free; the first request to arrive takes it.
    await pay(first, { ...order(mine.id, first.id, occurrence.id), card: visa });
    await pay(second, { ...order(theirs.id, second.id, occurrence.id), card: visa });
    await request(first, mine);
    await request(second, theirs);
    expect(await stored(mine.id)).toMatchObject({ status: 'booked', paidWith: 'card' });
    expect(await stored(theirs.id)).toMatchObject({
      status: 'refused',
      refusal: bookingMessages.full,
    });
    await drainJobs(t.app);
    expect(await paymentsOf(theirs.id)).toMatchObject([{ status: 'refunded' }]);
    expect((await refundsFor(theirs.id)).map((r) => r.amountMinor)).toEqual([1_000]);
    // A full class is not paid for in the first place.
    const third = await customer();
    const late = await pay(third, {
      ...order(randomUUID(), third.id, occurrence.id),
      card: visa,
    });
    expect(late.statusCode).toBe(422);
    expect(late.json().message).toBe(bookingMessages.full);
  });

  it('refunds a place cancelled in time, and a class staff cancel', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 1_200 });
    const me = await customer();
    const doc = booking(a.org.id, me.id, { occurrenceId: occurrence.id });
    await pay(me, { ...order(doc.id, me.id, occurrence.id), card: visa });
    await request(me, doc);
    const master = await pulled(me, doc.id);
    const cancel = { ...master, status: 'cancelled', updatedAt: new Date().toISOString() };
    expect(
      (await push(me, [{ assumedMasterState: master, newDocumentState: cancel }])).json(),
    ).toEqual([]);
    await drainJobs(t.app);
    expect(await paymentsOf(doc.id)).toMatchObject([{ status: 'refunded' }]);
    expect((await refundsFor(doc.id)).map((r) => r.amountMinor)).toEqual([1_200]);

    const other = await insertOccurrence(t.db, a.org.id, { priceMinor: 900 });
    const theirs = booking(a.org.id, me.id, { occurrenceId: other.occurrence.id });
    await pay(me, { ...order(theirs.id, me.id, other.occurrence.id), card: visa });
    await request(me, theirs);
    const cancelled = await t.app.inject({
      method: 'PATCH',
      url: `/api/schedule/occurrences/${other.occurrence.id}`,
      headers: a.manager.jar.headers(),
      payload: { cancelled: true },
    });
    expect(cancelled.statusCode).toBe(200);
    await drainJobs(t.app);
    expect(await stored(theirs.id)).toMatchObject({ status: 'cancelled' });
    expect((await refundsFor(theirs.id)).map((r) => r.amountMinor)).toEqual([900]);
  });

  it('gives back a payment no booking used within a day; its late request is told so', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, {
      priceMinor: 700,
      startsAt: new Date(Date.now() + 3 * 86_400_000),
    });
    const me = await customer();
    const doc = booking(a.org.id, me.id, { occurrenceId: occurrence.id });
    await pay(me, { ...order(doc.id, me.id, occurrence.id), card: visa });
    // An hour on: still the booking's to use.
    await queueBookingRefunds(t.db, t.app.jobs, {
      processor: t.app.paymentProcessor,
      now: new Date(Date.now() + 3_600_000),
    });
    expect(await paymentsOf(doc.id)).toMatchObject([{ status: 'paid' }]);
    await queueBookingRefunds(t.db, t.app.jobs, {
      processor: t.app.paymentProcessor,
      now: new Date(Date.now() + 25 * 3_600_000),
    });
    await drainJobs(t.app);
    expect(await paymentsOf(doc.id)).toMatchObject([{ status: 'refunded' }]);
    await request(me, doc);
    expect(await stored(doc.id)).toMatchObject({
      status: 'refused',
      refusal: bookingPayMessages.paymentReturned,
    });
    expect(await refundsFor(doc.id)).toHaveLength(1);
  });

  it('lets a guardian pay for their child’s place with their own card', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 800 });
    const doc = booking(a.org.id, a.childId, { occurrenceId: occurrence.id });
    const paid = await pay(a.parent, { ...order(doc.id, a.childId, occurrence.id), card: visa });
    expect(paid.json()).toMatchObject({ paid: true });
    expect(await paymentsOf(doc.id)).toMatchObject([
      { payerUserId: a.parent.id, customerUserId: a.childId },
    ]);
    await request(a.parent, doc);
    expect(await stored(doc.id)).toMatchObject({ status: 'booked', paidWith: 'card' });
  });

  it('refuses paying for a stranger, another organisation’s class, or what something held pays', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 500 });
    const me = await customer();
    const stranger = await pay(me, {
      ...order(randomUUID(), a.otherCustomerId, occurrence.id),
      card: visa,
    });
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json().message).toBe(bookingPayMessages.notFamily);
    // A child whose link its side never confirmed: not one the parent may pay for.
    const kid = await insertTestUser(t.db, { email: null, withPassword: false });
    await addMembership(t.db, kid.id, a.org.id, 'customer');
    await linkChild(t.db, a.parent.id, kid.id, a.org.id, { confirmed: false });
    const unconfirmed = await pay(a.parent, {
      ...order(randomUUID(), kid.id, occurrence.id),
      card: visa,
    });
    expect(unconfirmed.statusCode).toBe(403);
    expect(unconfirmed.json().message).toBe(bookingPayMessages.notFamily);

    const elsewhere = await insertOccurrence(t.db, b.org.id, { priceMinor: 500 });
    const foreign = await pay(me, {
      ...order(randomUUID(), me.id, elsewhere.occurrence.id),
      card: visa,
    });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().message).toBe(bookingMessages.noSuchClass);
    // Naming the other organisation in the body: not the app the session is in.
    const otherApp = await t.app.inject({
      method: 'POST',
      url: '/api/bookings/pay',
      headers: me.jar.headers(),
      payload: {
        ...order(randomUUID(), me.id, elsewhere.occurrence.id),
        orgId: b.org.id,
        card: visa,
      },
    });
    expect(otherApp.statusCode).toBe(403);

    const free = await insertOccurrence(t.db, a.org.id);
    const nothing = await pay(me, {
      ...order(randomUUID(), me.id, free.occurrence.id),
      card: visa,
    });
    expect(nothing.json().message).toBe(bookingPayMessages.nothingToPay);

    const [membership] = await t.db
      .insert(products)
      .values({
        orgId: a.org.id,
        name: 'Unlimited',
        type: 'recurring',
        schedule: 'month',
        priceMinor: 9_900,
        processorProductId: 'prod_sandbox_unlimited_pay',
      })
      .returning();
    await t.db.insert(subscriptions).values({
      orgId: a.org.id,
      customerUserId: me.id,
      productId: membership!.id,
      productName: 'Unlimited',
      status: 'active',
      startedOn: '2020-01-01',
      priceMinor: 9_900,
    } as typeof subscriptions.$inferInsert);
    const included = await insertOccurrence(t.db, a.org.id, {
      priceMinor: 500,
      entitlingProductIds: [membership!.id],
    });
    const covered = await pay(me, {
      ...order(randomUUID(), me.id, included.occurrence.id),
      card: visa,
    });
    expect(covered.json().message).toBe(bookingPayMessages.nothingToPay);
    // None of these charged anything.
    expect(
      (await t.db.select().from(bookingPayments).where(eq(bookingPayments.payerUserId, me.id)))
        .length,
    ).toBe(0);
  });

  it('charges once when the same place is paid through two checkouts or ten requests at once', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 1_100 });
    const me = await customer();
    const doc = booking(a.org.id, me.id, { occurrenceId: occurrence.id });
    const same = order(doc.id, me.id, occurrence.id);
    // Save the card first so the ten requests race on the charge itself.
    const first = await pay(me, { ...same, card: declining });
    expect(first.json()).toMatchObject({ paid: false });
    const cardRow = await t.db.query.paymentMethods.findFirst({
      where: (m, { eq: is }) => is(m.userId, me.id),
    });
    expect(cardRow).toBeTruthy();
    const good = await pay(me, { ...order(doc.id, me.id, occurrence.id), card: visa });
    // Another checkout for the same booking while one is in play: refused, nothing charged.
    expect(good.statusCode).toBe(422);
    expect(good.json().message).toBe(bookingPayMessages.alreadyPaid);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => pay(me, { ...same, card: visa })),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
    const succeeded = (await chargesFor(doc.id)).filter((c) => c.outcome === 'succeeded');
    expect(succeeded).toHaveLength(1);
  });

  it('replicates the payment to the payer’s devices as a receipt, and its refund, and to nobody else', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 1_300 });
    const me = await customer();
    const doc = booking(a.org.id, me.id, { occurrenceId: occurrence.id });
    const body = order(doc.id, me.id, occurrence.id);
    const receiptsOf = async (who: Person) => {
      const res = await pullAs(t, who, 'booking-payments', '?batchSize=1000');
      expect(res.statusCode).toBe(200);
      return (res.json().documents as Array<{ id: string; _deleted: boolean }>).filter(
        (d) => d.id === body.checkoutId,
      );
    };
    // Declined: nothing to show (a tombstone at most).
    await pay(me, { ...body, card: declining });
    expect((await receiptsOf(me)).filter((d) => !d._deleted)).toEqual([]);
    await pay(me, { ...body, card: visa });
    expect(await receiptsOf(me)).toMatchObject([
      {
        payerUserId: me.id,
        bookingId: doc.id,
        amountMinor: 1_300,
        status: 'paid',
        _deleted: false,
      },
    ]);
    await request(me, doc);
    expect(await receiptsOf(me)).toMatchObject([{ status: 'used' }]);
    const master = await pulled(me, doc.id);
    await push(me, [
      {
        assumedMasterState: master,
        newDocumentState: { ...master, status: 'cancelled', updatedAt: new Date().toISOString() },
      },
    ]);
    await drainJobs(t.app);
    const [refunded] = await receiptsOf(me);
    expect(refunded).toMatchObject({ status: 'refunded' });
    expect(refunded).toHaveProperty('refundedAt', expect.any(String));
    // Another customer of the organisation does not see it; nor does staff's device (RxDB's
    // open core has no room left there: access.rules.ts).
    expect(await receiptsOf(a.other)).toEqual([]);
    const staffPull = await t.app.inject({
      method: 'GET',
      url: '/api/sync/booking-payments/pull?batchSize=1000',
      headers: a.manager.jar.headers(),
    });
    expect(staffPull.statusCode).toBe(403);
    // Read-only on every device.
    const write = await t.app.inject({
      method: 'POST',
      url: '/api/sync/booking-payments/push',
      headers: me.jar.headers(),
      payload: [
        { assumedMasterState: refunded, newDocumentState: { ...refunded, status: 'paid' } },
      ],
    });
    expect(write.statusCode).toBeGreaterThanOrEqual(400);
  });

  it('emails the payer a receipt when paid and word of the refund when the money goes back', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, {
      priceMinor: 1_750,
      title: 'Hot yoga',
    });
    const me = await customer();
    const doc = booking(a.org.id, me.id, { occurrenceId: occurrence.id });
    await pay(me, { ...order(doc.id, me.id, occurrence.id), card: visa });
    await request(me, doc);
    const master = await pulled(me, doc.id);
    await push(me, [
      {
        assumedMasterState: master,
        newDocumentState: { ...master, status: 'cancelled', updatedAt: new Date().toISOString() },
      },
    ]);
    await drainJobs(t.app);
    const emails = await settledEmailsTo(t.db, me.email);
    const org = a.org.label;
    expect(emails.map((e) => e.subject).sort()).toEqual(
      [bookingPaymentTexts.paidSubject(org), bookingPaymentTexts.refundedSubject(org)].sort(),
    );
    const refund = emails.find((e) => e.subject === bookingPaymentTexts.refundedSubject(org));
    expect(refund?.textBody).toContain('$17.50');
    expect(refund?.textBody).toContain('Hot yoga');
    // A declined card sends nothing.
    const other = await customer();
    await pay(other, { ...order(randomUUID(), other.id, occurrence.id), card: declining });
    await drainJobs(t.app);
    expect(await settledEmailsTo(t.db, other.email)).toEqual([]);
  });
});
