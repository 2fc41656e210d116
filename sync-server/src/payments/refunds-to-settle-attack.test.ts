import { randomInt, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, bookingPayments, rosterItems, sandboxRefunds } from '@platform/schema/db';
import { claims as allClaims } from '@platform/schema/organizations/claims';
import type { RefundsToSettle } from '@platform/schema/payments/refunds-to-settle.zod';
import type { PaymentProcessor, RefundRequest } from '../adapters/payments/port.ts';
import { asKiosk, startTestKiosk } from '../kiosk/kiosk.fixtures.ts';
import {
  addMembership,
  insertTestUser,
  linkChild,
  logInAs,
  signedInStaff,
  switchInto,
  switchTo,
} from '../testing/auth-fixtures.ts';
import { payCards, payOrder } from '../testing/booking-pay-fixtures.ts';
import { drainJobs } from '../testing/job-fixtures.ts';
import { insertOccurrence } from '../testing/schedule-fixtures.ts';
import { pullAs, seedSyncOrg, type Person } from '../testing/sync-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { queueBookingRefunds, refundBookingPayment } from './booking-payments.service.ts';

/**
 * Attacks on Refunds to settle (issue 16; ed5d940, 46366c5): money paid back twice (retry and
 * mark-refunded racing each other, the refund job and the hourly sweep), tenancy, leaks in the
 * list, CSRF, fuzzing, and what the payer's devices hear. Each test asserts the SAFE behaviour:
 * a failing test is a finding.
 */
describe.each(testDatabaseKinds)('refunds to settle under attack on %s', (kind) => {
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
  const seller = (orgId = a.org.id) => staffWith(['manage-point-of-sale'], orgId);
  const send = (
    headers: Record<string, string>,
    method: 'GET' | 'POST',
    url: string,
    payload?: unknown,
  ) =>
    t.app.inject({
      method,
      url,
      headers,
      remoteAddress: address(),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const call = (who: Person | null, method: 'GET' | 'POST', url: string) =>
    send(who?.jar.headers() ?? {}, method, url);
  const list = async (who: Person) => {
    const res = await call(who, 'GET', '/api/refunds-to-settle');
    expect(res.statusCode, res.body).toBe(200);
    return res.json<RefundsToSettle>().refunds;
  };

  const rowOf = async (id: string) =>
    (await t.db.select().from(bookingPayments).where(eq(bookingPayments.id, id)))[0]!;
  /** The sandbox's refunds of this payment's charge (ch_sandbox_<row id>). */
  const processorRefundsOf = async (id: string) => {
    const charge = (await rowOf(id)).processorChargeId!.replace(/^ch_sandbox_/, '');
    return t.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.chargeId, charge));
  };
  const auditOf = (id: string) =>
    t.db
      .select()
      .from(auditLog)
      .where(sql`${auditLog.detail}->>'paymentId' = ${id}`);

  /** A customer of `orgId`, signed in to its customer app, with a roster item (or none). */
  async function customer(
    orgId: string,
    name: { firstName: string; lastName: string } | null = { firstName: 'Pat', lastName: 'Payer' },
  ): Promise<Person> {
    const user = await insertTestUser(t.db, name ?? {});
    await addMembership(t.db, user.id, orgId, 'customer');
    if (name)
      await t.db
        .insert(rosterItems)
        .values({ orgId, userId: user.id, ...name, email: user.email, updatedAt: new Date() });
    const { jar } = await logInAs(t.app, user.email!, {
      profileType: 'use-customer',
      profileOrgId: orgId,
    });
    return { id: user.id, email: user.email!, jar };
  }

  /** A class paid at booking (2,500) by `payer`: its payment row, `paid`. */
  async function paidPayment(orgId: string, payer: Person) {
    const { occurrence } = await insertOccurrence(t.db, orgId, { priceMinor: 2_500 });
    const paid = await t.app.inject({
      method: 'POST',
      url: '/api/bookings/pay',
      headers: payer.jar.headers(),
      remoteAddress: address(),
      payload: { orgId, ...payOrder(randomUUID(), payer.id, occurrence.id), card: payCards.visa },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const [payment] = await t.db
      .select()
      .from(bookingPayments)
      .where(eq(bookingPayments.payerUserId, payer.id));
    expect(payment?.status).toBe('paid');
    return payment!;
  }

  /**
   * A refund the sandbox refused (asked for more than was paid, as refunds-to-settle.test.ts
   * does). `agreeLater`: the amount is put back to what was paid afterwards, so the processor
   * agrees when asked again (a refusal that does not last, e.g. a balance too low for a while).
   */
  async function refusedRefund(
    { orgId = a.org.id, payer, agreeLater = true } = {} as {
      orgId?: string;
      payer?: Person;
      agreeLater?: boolean;
    },
  ) {
    const who = payer ?? (await customer(orgId));
    const payment = await paidPayment(orgId, who);
    await t.db
      .update(bookingPayments)
      .set({ status: 'refund-due', amountMinor: 9_999 })
      .where(eq(bookingPayments.id, payment.id));
    expect(
      await refundBookingPayment({ db: t.db, processor: t.app.paymentProcessor }, payment.id),
    ).toBe('refused');
    if (agreeLater)
      await t.db
        .update(bookingPayments)
        .set({ amountMinor: 2_500 })
        .where(eq(bookingPayments.id, payment.id));
    expect((await rowOf(payment.id)).status).toBe('refund-refused');
    return { payer: who, paymentId: payment.id };
  }

  /** The sandbox, whose refunds wait at a gate (a slow processor call, a job still running). */
  function gatedProcessor() {
    const real = t.app.paymentProcessor;
    let entered!: () => void;
    const reached = new Promise<void>((resolve) => (entered = resolve));
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const processor: PaymentProcessor = {
      ...real,
      refund: async (request: RefundRequest) => {
        entered();
        await gate;
        return real.refund(request);
      },
    };
    return { processor, reached, open };
  }
  /** The sandbox, refusing this time (a refusal that does not last). */
  const refusingOnce = (): PaymentProcessor => ({
    ...t.app.paymentProcessor,
    refund: () =>
      Promise.resolve({ status: 'refused', message: 'The balance is too low to refund now.' }),
  });

  // ----------------------------------------------------------- money paid back twice

  it('20 parallel retry / mark-refunded on one payment: exactly one wins, never a processor refund and a refund outside', async () => {
    for (let round = 0; round < 3; round++) {
      const settler = await seller();
      const { paymentId } = await refusedRefund();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call(
            settler,
            'POST',
            `/api/refunds-to-settle/${paymentId}/${(i + round) % 2 === 0 ? 'retry' : 'refunded'}`,
          ),
        ),
      );
      const codes = answers.map((r) => r.statusCode);
      expect(
        codes.filter((c) => c === 200),
        codes.join(),
      ).toHaveLength(1);
      expect(
        codes.filter((c) => c === 409),
        codes.join(),
      ).toHaveLength(19);
      await drainJobs(t.app);
      const audit = await auditOf(paymentId);
      expect(audit).toHaveLength(1);
      const row = await rowOf(paymentId);
      expect(row.status).toBe('refunded');
      const refunds = await processorRefundsOf(paymentId);
      if (audit[0]!.action === 'booking-refund-retried') {
        expect(refunds).toHaveLength(1);
        expect(row.processorRefundId).toBe(`re_sandbox_${refunds[0]!.id}`);
      } else {
        expect(audit[0]!.action).toBe('booking-refund-marked-refunded');
        expect(refunds).toEqual([]);
        expect(row.processorRefundId).toBeNull();
      }
    }
  });

  it('a retry racing the hourly sweep and several runs of the refund job refunds once', async () => {
    const settler = await seller();
    const { paymentId } = await refusedRefund();
    const retried = await call(settler, 'POST', `/api/refunds-to-settle/${paymentId}/retry`);
    expect(retried.statusCode, retried.body).toBe(200);
    const deps = { db: t.db, processor: t.app.paymentProcessor, jobs: t.app.jobs };
    await Promise.all([
      ...Array.from({ length: 3 }, () =>
        queueBookingRefunds(t.db, t.app.jobs, { processor: t.app.paymentProcessor }),
      ),
      ...Array.from({ length: 6 }, () => refundBookingPayment(deps, paymentId)),
      drainJobs(t.app),
    ]);
    await drainJobs(t.app);
    expect((await rowOf(paymentId)).status).toBe('refunded');
    expect(await processorRefundsOf(paymentId)).toHaveLength(1);
    // Refunded: neither endpoint moves it any more.
    for (const action of ['retry', 'refunded'])
      expect(
        (await call(settler, 'POST', `/api/refunds-to-settle/${paymentId}/${action}`)).statusCode,
      ).toBe(409);
  });

  it('asked again after the processor did refund (our record lost): the same refund, not a second', async () => {
    const settler = await seller();
    const { paymentId } = await refusedRefund();
    const row = await rowOf(paymentId);
    // The processor made the refund under the job's key, but its answer never reached us.
    const made = await t.app.paymentProcessor.refund({
      orgId: row.orgId,
      chargeId: row.processorChargeId!,
      amountMinor: row.amountMinor,
      idempotencyKey: `booking-refund:${row.id}`,
    });
    expect(made.status).toBe('refunded');
    const retried = await call(settler, 'POST', `/api/refunds-to-settle/${paymentId}/retry`);
    expect(retried.statusCode, retried.body).toBe(200);
    await drainJobs(t.app);
    const after = await rowOf(paymentId);
    expect(after.status).toBe('refunded');
    expect(made.status === 'refunded' && after.processorRefundId).toBe(
      made.status === 'refunded' ? made.refundId : null,
    );
    expect(await processorRefundsOf(paymentId)).toHaveLength(1);
  });

  it('a refund job still running when staff mark the refund made outside: the mark stands (no refused answer written over it)', async () => {
    const settler = await seller();
    // The processor refuses this one every time (asked for more than was paid).
    const { paymentId } = await refusedRefund({ agreeLater: false });
    // Owed back again (a retry); two runs of its job at once — the retry's and the hourly
    // sweep's, or one run past its 120 s expiry and its retry.
    await t.db
      .update(bookingPayments)
      .set({ status: 'refund-due' })
      .where(eq(bookingPayments.id, paymentId));
    const slow = gatedProcessor();
    const stale = refundBookingPayment({ db: t.db, processor: slow.processor }, paymentId);
    await slow.reached;
    // The first run holds the claim while it asks: the second asks nothing, and staff cannot
    // mark a refund still being asked for (it is owed back, not refused).
    expect(
      await refundBookingPayment({ db: t.db, processor: t.app.paymentProcessor }, paymentId),
    ).toBe('nothing');
    const early = await call(settler, 'POST', `/api/refunds-to-settle/${paymentId}/refunded`);
    expect(early.statusCode, early.body).toBe(409);
    slow.open();
    expect(await stale).toBe('refused');
    // Refused by the run that asked: now staff pay it back by hand and mark it.
    const marked = await call(settler, 'POST', `/api/refunds-to-settle/${paymentId}/refunded`);
    expect(marked.statusCode, marked.body).toBe(200);
    // A late run finds nothing to ask.
    expect(
      await refundBookingPayment({ db: t.db, processor: t.app.paymentProcessor }, paymentId),
    ).toBe('nothing');
    const row = await rowOf(paymentId);
    // SAFE: refunded outside stays refunded, off the list (else a second seller pays it again).
    expect(row.status).toBe('refunded');
    expect(row.failureMessage).toMatch(/^Refunded outside the platform/);
    expect((await list(settler)).map((r) => r.id)).not.toContain(paymentId);
  });

  it('a refund job still running when staff mark the refund made outside: the processor does not refund it too', async () => {
    const settler = await seller();
    const payer = await customer(a.org.id);
    const payment = await paidPayment(a.org.id, payer);
    const paymentId = payment.id;
    await t.db
      .update(bookingPayments)
      .set({ status: 'refund-due' })
      .where(eq(bookingPayments.id, paymentId));
    // One run of the job waits on a slow processor; another finds it claimed and asks nothing
    // (it would have been refused for now).
    const slow = gatedProcessor();
    const stale = refundBookingPayment({ db: t.db, processor: slow.processor }, paymentId);
    await slow.reached;
    expect(await refundBookingPayment({ db: t.db, processor: refusingOnce() }, paymentId)).toBe(
      'nothing',
    );
    // Nothing to settle while it is asked: not listed, and cannot be marked.
    expect((await list(settler)).map((r) => r.id)).not.toContain(paymentId);
    const marked = await call(settler, 'POST', `/api/refunds-to-settle/${paymentId}/refunded`);
    expect(marked.statusCode, marked.body).toBe(409);
    slow.open();
    expect(await stale).toBe('refunded');
    const processorRefunds = await processorRefundsOf(paymentId);
    const markedOutside = (await auditOf(paymentId)).filter(
      (row) => row.action === 'booking-refund-marked-refunded',
    );
    // SAFE: never both a processor refund and a refund outside for one payment.
    expect(
      { processorRefunds: processorRefunds.length, markedOutside: markedOutside.length },
      `final row: ${JSON.stringify(await rowOf(paymentId))}`,
    ).not.toEqual({ processorRefunds: 1, markedOutside: 1 });
  });

  // ------------------------------------------------------------------------ tenancy

  it('nobody but the organisation’s sellers lists, asks again or marks: other organisations, staff without the claim, the payer, a switched guardian, a kiosk, signed out', async () => {
    const { payer, paymentId } = await refusedRefund();
    // A guardian switched into their child (a customer of A).
    const guardian = await customer(a.org.id);
    const kid = await insertTestUser(t.db, { firstName: 'Kid', email: null, withPassword: false });
    await addMembership(t.db, kid.id, a.org.id, 'customer');
    await linkChild(t.db, guardian.id, kid.id, a.org.id);
    await switchInto(t.app, guardian.jar, kid.id);
    // A guardian of a child who sells for A: the switch never reaches A's staff view.
    const bossKid = await insertTestUser(t.db);
    await addMembership(t.db, bossKid.id, a.org.id, 'staff', [...allClaims]);
    const bossGuardian = await insertTestUser(t.db);
    await linkChild(t.db, bossGuardian.id, bossKid.id, null);
    const bgJar = (await logInAs(t.app, bossGuardian.email!)).jar;
    await switchTo(t.app, bgJar, bossKid.id, a.org.id);
    // A seller of A signed in to A's customer app; a seller who lost the claim.
    const sellerUser = await insertTestUser(t.db);
    await addMembership(t.db, sellerUser.id, a.org.id, 'staff', ['manage-point-of-sale']);
    await addMembership(t.db, sellerUser.id, a.org.id, 'customer');
    const asCustomerView = (
      await logInAs(t.app, sellerUser.email!, {
        profileType: 'use-customer',
        profileOrgId: a.org.id,
      })
    ).jar;
    const demoted = await seller();
    await t.db.execute(
      sql`update memberships set claims = array['view-customers']::text[] where user_id = ${demoted.id}`,
    );
    const kiosk = await startTestKiosk(t.app, t.db, a.org.id);

    const attackers: Array<[string, Record<string, string>]> = [
      ['B’s seller', (await seller(b.org.id)).jar.headers()],
      ['B’s owner', b.manager.jar.headers()],
      [
        'A staff without point of sale',
        (await staffWith(['view-customers', 'manage-products'])).jar.headers(),
      ],
      ['A staff tracking own time', a.staff.jar.headers()],
      ['the payer', payer.jar.headers()],
      ['another customer', a.other.jar.headers()],
      ['a guardian switched into a child', guardian.jar.headers()],
      ['a guardian switched into a child who sells', bgJar.headers()],
      ['a seller in the customer view', asCustomerView.headers()],
      ['a seller who lost the claim', demoted.jar.headers()],
      ['a kiosk', asKiosk(kiosk.jar) as Record<string, string>],
      ['the kiosk header alone', { 'x-kiosk': '1' }],
      ['signed out', {}],
    ];
    for (const [what, headers] of attackers) {
      const listed = await send(headers, 'GET', '/api/refunds-to-settle');
      if (listed.statusCode === 200) expect(listed.body, what).not.toContain(paymentId);
      else expect([401, 403], `${what}: ${listed.body}`).toContain(listed.statusCode);
      for (const action of ['retry', 'refunded']) {
        const answer = await send(headers, 'POST', `/api/refunds-to-settle/${paymentId}/${action}`);
        expect([401, 403, 404], `${what} ${action}: ${answer.body}`).toContain(answer.statusCode);
      }
    }
    await drainJobs(t.app);
    expect((await rowOf(paymentId)).status).toBe('refund-refused');
    expect(await auditOf(paymentId)).toEqual([]);
    expect(await processorRefundsOf(paymentId)).toEqual([]);
  });

  it('another organisation’s refused refund answers 404 to a seller (no 409 oracle), guessed ids 404', async () => {
    const theirs = await refusedRefund({ orgId: b.org.id });
    const settler = await seller();
    for (const action of ['retry', 'refunded']) {
      const answer = await call(
        settler,
        'POST',
        `/api/refunds-to-settle/${theirs.paymentId}/${action}`,
      );
      expect(answer.statusCode).toBe(404);
      for (const guess of [randomUUID(), '00000000-0000-0000-0000-000000000000'])
        expect(
          (await call(settler, 'POST', `/api/refunds-to-settle/${guess}/${action}`)).statusCode,
        ).toBe(404);
    }
    // B's settled payment (refunded) answers the same 404, not 409.
    const settled = await refusedRefund({ orgId: b.org.id });
    await t.db
      .update(bookingPayments)
      .set({ status: 'refunded' })
      .where(eq(bookingPayments.id, settled.paymentId));
    expect(
      (await call(settler, 'POST', `/api/refunds-to-settle/${settled.paymentId}/retry`)).statusCode,
    ).toBe(404);
    expect((await rowOf(theirs.paymentId)).status).toBe('refund-refused');
  });

  it('payments in any other status are not moved by either endpoint', async () => {
    const settler = await seller();
    const payer = await customer(a.org.id);
    const payment = await paidPayment(a.org.id, payer);
    for (const status of [
      'charging',
      'declined',
      'paid',
      'used',
      'refund-due',
      'refunded',
    ] as const) {
      await t.db.update(bookingPayments).set({ status }).where(eq(bookingPayments.id, payment.id));
      for (const action of ['retry', 'refunded']) {
        const answer = await call(
          settler,
          'POST',
          `/api/refunds-to-settle/${payment.id}/${action}`,
        );
        expect(answer.statusCode, `${status} ${action}: ${answer.body}`).toBe(409);
        expect((await rowOf(payment.id)).status).toBe(status);
      }
      expect((await list(settler)).map((r) => r.id)).not.toContain(payment.id);
    }
    expect(await auditOf(payment.id)).toEqual([]);
    expect(await processorRefundsOf(payment.id)).toEqual([]);
  });

  it('an admin impersonating a seller: the refund marked outside names the admin at the keyboard', async () => {
    const owner = await seller();
    const { paymentId } = await refusedRefund();
    const admin = await insertTestUser(t.db, {
      role: 'admin',
      firstName: 'Ada',
      lastName: 'Admin',
    });
    const adminJar = (await logInAs(t.app, admin.email!)).jar;
    const switched = await switchTo(t.app, adminJar, owner.id, a.org.id);
    expect(switched.statusCode, switched.body).toBe(303);
    const marked = await send(
      adminJar.headers(),
      'POST',
      `/api/refunds-to-settle/${paymentId}/refunded`,
    );
    expect(marked.statusCode, marked.body).toBe(200);
    const [row] = await auditOf(paymentId);
    // SAFE: the admin is on record (actor, or impersonator in the detail), as exports and the
    // team audit do — not the seller alone for money the admin said was paid back.
    expect([row!.actorUserId, row!.detail.impersonatorUserId]).toContain(admin.id);
  });

  // ------------------------------------------------------------------ leaks in the list

  it('the list holds only this organisation’s refused refunds, no names from elsewhere, no processor ids', async () => {
    const mark = `LEAK${randomUUID().slice(0, 8)}`;
    // A payer with no roster item in A, whose name B's roster knows.
    const stranger = await insertTestUser(t.db, {
      firstName: `${mark}First`,
      lastName: `${mark}Last`,
    });
    await addMembership(t.db, stranger.id, a.org.id, 'customer');
    await addMembership(t.db, stranger.id, b.org.id, 'customer');
    await t.db.insert(rosterItems).values({
      orgId: b.org.id,
      userId: stranger.id,
      firstName: `${mark}Roster`,
      lastName: 'OfB',
      email: stranger.email,
      updatedAt: new Date(),
    });
    const strangerJar = (
      await logInAs(t.app, stranger.email!, { profileType: 'use-customer', profileOrgId: a.org.id })
    ).jar;
    const mine = await refusedRefund({
      payer: { id: stranger.id, email: stranger.email!, jar: strangerJar },
    });
    const theirs = await refusedRefund({ orgId: b.org.id });
    const settler = await seller();
    const res = await call(settler, 'GET', '/api/refunds-to-settle');
    expect(res.statusCode).toBe(200);
    const refunds = res.json<RefundsToSettle>().refunds;
    expect(refunds.map((r) => r.id)).toContain(mine.paymentId);
    expect(refunds.map((r) => r.id)).not.toContain(theirs.paymentId);
    expect(res.body).not.toContain(mark);
    expect(res.body).not.toContain(stranger.email!);
    const row = await rowOf(mine.paymentId);
    for (const secret of [row.processorChargeId!, row.paymentMethodId!, 'ch_sandbox_', 'pm_'])
      expect(res.body).not.toContain(secret);
    for (const refund of refunds)
      expect(Object.keys(refund).sort()).toEqual(
        [
          'amountMinor',
          'currency',
          'customerName',
          'description',
          'failureMessage',
          'id',
          'paidAt',
          'payerName',
          'refusedAt',
        ].sort(),
      );
  });

  // ---------------------------------------------------------------- CSRF and fuzzing

  it('a cross-site POST is refused like any other write, whatever it claims', async () => {
    const settler = await seller();
    const { paymentId } = await refusedRefund();
    for (const action of ['retry', 'refunded'])
      for (const forged of [
        { origin: 'https://evil.example' } as Record<string, string>,
        { origin: 'null' },
        { referer: 'https://evil.example/pos' },
        { origin: 'http://localhost:3000.evil.example' },
        { 'content-type': 'text/plain', origin: 'https://evil.example' },
      ]) {
        const answer = await send(
          { ...settler.jar.headers(), ...forged },
          'POST',
          `/api/refunds-to-settle/${paymentId}/${action}`,
          forged['content-type'] ? '{}' : undefined,
        );
        expect(answer.statusCode, `${action} ${JSON.stringify(forged)}`).toBe(403);
      }
    expect((await rowOf(paymentId)).status).toBe('refund-refused');
    // From the app's own origin it works.
    const own = await send(
      { ...settler.jar.headers(), origin: 'http://localhost:3000' },
      'POST',
      `/api/refunds-to-settle/${paymentId}/refunded`,
    );
    expect(own.statusCode, own.body).toBe(200);
  });

  it('fuzzed ids and bodies: never a 500, never a change but the one asked, a body changes nothing', async () => {
    const settler = await seller();
    const { paymentId } = await refusedRefund();
    const ids = [
      'not-an-id',
      `${paymentId}x`,
      `${paymentId}%20`,
      `${paymentId}%00`,
      encodeURIComponent(`${paymentId}' or '1'='1`),
      encodeURIComponent(`{${paymentId}}`),
      'a'.repeat(5_000),
      '%',
      '..%2F..%2Fapi%2Frefunds-to-settle',
      encodeURIComponent('00000000-0000-0000-0000-000000000000; drop table booking_payments'),
    ];
    for (const id of ids)
      for (const action of ['retry', 'refunded']) {
        const answer = await call(settler, 'POST', `/api/refunds-to-settle/${id}/${action}`);
        expect(answer.statusCode, `${id} ${action}`).toBeGreaterThanOrEqual(400);
        expect(answer.statusCode, `${id} ${action}`).toBeLessThan(500);
      }
    expect((await rowOf(paymentId)).status).toBe('refund-refused');
    // Bodies the route never reads: no amount, status, org or payer taken from them.
    for (const payload of [
      'not json',
      '[]',
      JSON.stringify({ __proto__: { status: 'refunded' } }),
      'x'.repeat(2_000_000),
    ]) {
      const answer = await send(
        { ...settler.jar.headers(), 'content-type': 'application/json' },
        'POST',
        `/api/refunds-to-settle/${randomUUID()}/retry`,
        payload,
      );
      expect(answer.statusCode, payload.slice(0, 40)).toBeGreaterThanOrEqual(400);
      expect(answer.statusCode, payload.slice(0, 40)).toBeLessThan(500);
    }
    const odd = await send(
      { ...settler.jar.headers(), 'content-type': 'application/json' },
      'POST',
      `/api/refunds-to-settle/${paymentId.toUpperCase()}/refunded`,
      {
        amountMinor: 1,
        status: 'refund-due',
        orgId: b.org.id,
        payerUserId: settler.id,
        refundedAt: '1999-01-01T00:00:00.000Z',
      },
    );
    expect(odd.statusCode).toBeLessThan(500);
    const row = await rowOf(paymentId);
    expect(row.amountMinor).toBe(2_500);
    expect(row.orgId).toBe(a.org.id);
    expect(row.payerUserId).not.toBe(settler.id);
    if (odd.statusCode === 200) {
      expect(row.status).toBe('refunded');
      expect(row.refundedAt!.getFullYear()).toBeGreaterThan(2000);
    } else expect(row.status).toBe('refund-refused');
  });

  // ------------------------------------------------------------- the payer's devices

  it('the payer’s devices see every transition: refused, owed back again, refunded; refunded outside', async () => {
    const settler = await seller();
    const statusPulled = async (who: Person, id: string) => {
      const res = await pullAs(t, who, 'booking-payments', '?batchSize=1000');
      expect(res.statusCode, res.body).toBe(200);
      const doc = res
        .json<{ documents: Array<{ id: string; status: string; refundedAt: string | null }> }>()
        .documents.find((d) => d.id === id);
      return doc;
    };
    // A change is pullable once every transaction older than it has ended — on a PostgreSQL
    // shared with other test files running, that can be a moment after the answer: each
    // transition is waited for (a status that never comes still fails, after 15 s).
    const pulledOnce = (who: Person, id: string, statuses: readonly string[]) =>
      vi.waitFor(
        async () => {
          const doc = await statusPulled(who, id);
          if (!doc || !statuses.includes(doc.status))
            throw new Error(
              `${id} pulled as ${doc?.status ?? 'nothing'}, not ${statuses.join(' or ')}`,
            );
          return doc;
        },
        { timeout: 15_000, interval: 100 },
      );
    const first = await refusedRefund();
    await pulledOnce(first.payer, first.paymentId, ['refund-refused']);
    expect(
      (await call(settler, 'POST', `/api/refunds-to-settle/${first.paymentId}/retry`)).statusCode,
    ).toBe(200);
    await pulledOnce(first.payer, first.paymentId, ['refund-due', 'refunded']);
    await drainJobs(t.app);
    const refunded = await pulledOnce(first.payer, first.paymentId, ['refunded']);
    expect(refunded.refundedAt).not.toBeNull();

    const second = await refusedRefund();
    expect(
      (await call(settler, 'POST', `/api/refunds-to-settle/${second.paymentId}/refunded`))
        .statusCode,
    ).toBe(200);
    const outside = await pulledOnce(second.payer, second.paymentId, ['refunded']);
    expect(outside.refundedAt).not.toBeNull();
    // Nobody else's devices hear of it.
    expect(await statusPulled(a.other, second.paymentId)).toBeUndefined();
  });
});
