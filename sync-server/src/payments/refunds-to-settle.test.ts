import { randomInt, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, bookingPayments, rosterItems, sandboxRefunds } from '@platform/schema/db';
import {
  refundsToSettleTexts as texts,
  type RefundsToSettle,
} from '@platform/schema/payments/refunds-to-settle.zod';
import { signedInStaff } from '../testing/auth-fixtures.ts';
import { payCards, payOrder } from '../testing/booking-pay-fixtures.ts';
import { drainJobs } from '../testing/job-fixtures.ts';
import { insertOccurrence } from '../testing/schedule-fixtures.ts';
import { seedSyncOrg, signedInCustomer, type Person } from '../testing/sync-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { refundBookingPayment } from './booking-payments.service.ts';

/**
 * Refunds to settle (issue 16): a refund the processor refused waits for staff who sell; they
 * ask again (owed back once more, its job queued — a refund made once is never made twice) or
 * mark it refunded outside the platform. Only that organisation's sellers see or touch them.
 */
describe.each(testDatabaseKinds)('refunds to settle on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;
  let b: Awaited<ReturnType<typeof seedSyncOrg>>;
  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await seedSyncOrg(t.app, t.db);
    b = await seedSyncOrg(t.app, t.db);
  }, 60_000);
  afterAll(() => t.close());

  const address = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  const staffWith = async (claims: string[], orgId = a.org.id): Promise<Person> => {
    const { user, jar } = await signedInStaff(t.app, t.db, orgId, claims);
    return { id: user.id, email: user.email!, jar };
  };
  const call = (who: Person | null, method: 'GET' | 'POST', url: string) =>
    t.app.inject({ method, url, headers: who?.jar.headers() ?? {} });

  /** A class paid at booking whose refund the processor refused (asked for more than paid). */
  async function refusedRefund() {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { priceMinor: 2_500 });
    const payer = await signedInCustomer(t.app, t.db, a.org.id);
    await t.db.insert(rosterItems).values({
      orgId: a.org.id,
      userId: payer.id,
      firstName: 'Pat',
      lastName: 'Payer',
      email: payer.email,
      updatedAt: new Date(),
    });
    const paid = await t.app.inject({
      method: 'POST',
      url: '/api/bookings/pay',
      headers: payer.jar.headers(),
      remoteAddress: address(),
      payload: {
        orgId: a.org.id,
        ...payOrder(randomUUID(), payer.id, occurrence.id),
        card: payCards.visa,
      },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const [payment] = await t.db
      .select()
      .from(bookingPayments)
      .where(eq(bookingPayments.payerUserId, payer.id));
    await t.db
      .update(bookingPayments)
      .set({ status: 'refund-due', amountMinor: 9_999 })
      .where(eq(bookingPayments.id, payment!.id));
    expect(
      await refundBookingPayment({ db: t.db, processor: t.app.paymentProcessor }, payment!.id),
    ).toBe('refused');
    return { payer, paymentId: payment!.id };
  }

  /** The sandbox's charge row id inside the processor's charge id (ch_sandbox_<id>). */
  const sandboxChargeOf = (processorChargeId: string) =>
    processorChargeId.replace(/^ch_sandbox_/, '');

  const statusOf = async (id: string) =>
    (await t.db.select().from(bookingPayments).where(eq(bookingPayments.id, id)))[0]!;

  it('lists a refused refund with its reason; asked again (and agreed), it is refunded once and leaves the list', async () => {
    const seller = await staffWith(['manage-point-of-sale']);
    const { payer, paymentId } = await refusedRefund();
    const listed = await call(seller, 'GET', '/api/refunds-to-settle');
    expect(listed.statusCode).toBe(200);
    const refund = listed.json<RefundsToSettle>().refunds.find((r) => r.id === paymentId);
    expect(refund).toMatchObject({ amountMinor: 9_999, currency: 'USD' });
    expect(refund!.description).toMatch(/^Spin/);
    expect(refund!.failureMessage).toBeTruthy();
    expect(refund).toMatchObject({ payerName: 'Pat Payer', customerName: 'Pat Payer' });

    // The processor would now agree (the right amount): asked again.
    await t.db
      .update(bookingPayments)
      .set({ amountMinor: 2_500 })
      .where(eq(bookingPayments.id, paymentId));
    const retried = await call(seller, 'POST', `/api/refunds-to-settle/${paymentId}/retry`);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toEqual({ message: texts.retried });
    // Owed back again, its job queued (the worker may already have made it).
    expect(['refund-due', 'refunded']).toContain((await statusOf(paymentId)).status);
    // Twice: the second finds it no longer refused.
    const twice = await call(seller, 'POST', `/api/refunds-to-settle/${paymentId}/retry`);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ message: texts.notWaiting });
    await drainJobs(t.app);
    expect((await statusOf(paymentId)).status).toBe('refunded');
    const charge = sandboxChargeOf((await statusOf(paymentId)).processorChargeId!);
    expect(
      await t.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.chargeId, charge)),
    ).toHaveLength(1);
    const after = (await call(seller, 'GET', '/api/refunds-to-settle')).json<RefundsToSettle>();
    expect(after.refunds.map((r) => r.id)).not.toContain(paymentId);
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorUserId, seller.id), eq(auditLog.subjectUserId, payer.id)));
    expect(audit.map((row) => row.action)).toEqual(['booking-refund-retried']);
  });

  it('marked refunded outside the platform: refunded, named, audited, nothing asked of the processor', async () => {
    const seller = await staffWith(['manage-point-of-sale']);
    const { paymentId } = await refusedRefund();
    const marked = await call(seller, 'POST', `/api/refunds-to-settle/${paymentId}/refunded`);
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json()).toEqual({ message: texts.markedRefunded });
    const row = await statusOf(paymentId);
    expect(row.status).toBe('refunded');
    expect(row.refundedAt).not.toBeNull();
    expect(row.failureMessage).toMatch(/^Refunded outside the platform \(marked by /);
    await drainJobs(t.app);
    expect(
      await t.db
        .select()
        .from(sandboxRefunds)
        .where(eq(sandboxRefunds.chargeId, sandboxChargeOf(row.processorChargeId!))),
    ).toEqual([]);
    const again = await call(seller, 'POST', `/api/refunds-to-settle/${paymentId}/retry`);
    expect(again.statusCode).toBe(409);
  });

  it('only the organisation’s sellers: other organisations, staff without point of sale, customers and anonymous see and change nothing', async () => {
    const { payer, paymentId } = await refusedRefund();
    const others = [
      await staffWith(['manage-point-of-sale'], b.org.id),
      await staffWith(['view-customers', 'manage-products']),
      payer,
    ];
    for (const who of [...others, null]) {
      const list = await call(who, 'GET', '/api/refunds-to-settle');
      if (list.statusCode === 200)
        expect(list.json<RefundsToSettle>().refunds.map((r) => r.id)).not.toContain(paymentId);
      else expect([401, 403]).toContain(list.statusCode);
      for (const action of ['retry', 'refunded']) {
        const answer = await call(who, 'POST', `/api/refunds-to-settle/${paymentId}/${action}`);
        expect([401, 403, 404]).toContain(answer.statusCode);
      }
    }
    expect((await statusOf(paymentId)).status).toBe('refund-refused');
    const seller = await staffWith(['manage-point-of-sale']);
    expect(
      (await call(seller, 'POST', `/api/refunds-to-settle/${randomUUID()}/retry`)).statusCode,
    ).toBe(404);
    expect((await call(seller, 'POST', '/api/refunds-to-settle/not-an-id/retry')).statusCode).toBe(
      400,
    );
  });
});
