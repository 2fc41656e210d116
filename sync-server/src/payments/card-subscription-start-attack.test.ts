import { randomUUID } from 'node:crypto';
import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { users } from '@platform/schema/db';
import {
  invoices,
  organizations,
  paymentMethods,
  products,
  sandboxCharges,
  subscriptions,
} from '@platform/schema/db';
import { agreedPriceMinor, type AssignmentRow } from '@platform/schema/imports/import-rules';
import { chargeFlowMessages } from '@platform/schema/payments/charge-flow.rules';
import {
  addDays,
  dayKeyOf,
  orgTimeZone,
  startOfDay,
  type DayKey,
} from '@platform/schema/time-tracking/org-calendar';
import type { PaymentProcessor } from '../adapters/payments/port.ts';
import type { Db } from '../db/open-database.ts';
import type { JobName } from '../jobs/job-definitions.ts';
import {
  addMembership,
  insertTestUser,
  linkChild,
  logInAs,
  newOrgWithOwner,
  signedInStaff,
  switchTo,
} from '../testing/auth-fixtures.ts';
import { productThroughRoute } from '../testing/payment-fixtures.ts';
import type { CookieJar } from '../testing/cookie-jar.ts';
import { importCalls } from '../testing/import-fixtures.ts';
import { drainJobs } from '../testing/job-fixtures.ts';
import { addSandboxCard, noonOf, sandboxCardNumbers } from '../testing/renewal-fixtures.ts';
import { startStripeBench, stripeCustomerWithCard } from '../testing/stripe-fixtures.ts';
import type { StripeWireServer } from '../testing/stripe-wire-server.ts';
import { insertRosterItem, pullAs, type Person } from '../testing/sync-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { importAssignmentBatch } from './assignments-import.service.ts';
import { replaceCardOnFile } from './card-on-file.service.ts';
import {
  queuePendingCardStarts,
  startCardSubscriptions,
} from './card-subscription-start.service.ts';
import { renewSubscription } from './renewal.service.ts';
import { cancelAtPeriodEnd } from './shop.service.ts';

const card = 'start-stripe-subscription';
const HEADER = 'customerEmail,productName,action,startDate,endDate,discountType,discountAmount';
const HOUR_MS = 60 * 60_000;

/**
 * Adversarial review of card subscriptions started from a product assignments file (commit
 * 2226739, decision 0073): whose card is charged, who may start them, how often and how much
 * they are charged, and what a cancellation racing the start does. Every test asserts the SAFE
 * behaviour, through real requests where possible. The first review's four findings (all with
 * Stripe: a cancellation or a card change that did not reach it) are mended and kept here.
 */
describe.each(testDatabaseKinds)('card subscription starts under attack on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let calls: ReturnType<typeof importCalls>;

  beforeAll(async () => {
    t = await createTestApp(kind);
    calls = importCalls(t.app);
  }, 60_000);
  afterAll(() => t?.close());

  const newOrg = () => newOrgWithOwner(t.app, t.db);
  type Org = Awaited<ReturnType<typeof newOrg>>;
  const today = (timeZone?: string): DayKey => dayKeyOf(Date.now(), orgTimeZone(timeZone));
  const importFile = (jar: CookieJar, text: string) =>
    calls.importFile(jar, 'assignments', `${HEADER}\n${text}`, 4096);
  const deps = () => ({ db: t.db, processor: t.app.paymentProcessor, jobs: t.app.jobs });

  const product = (org: Org, body: Parameters<typeof productThroughRoute>[2] = {}) =>
    productThroughRoute(t.app, org.jar, body);

  async function customerOf(orgId: string, values: Partial<typeof users.$inferInsert> = {}) {
    const user = await insertTestUser(t.db, values);
    await addMembership(t.db, user.id, orgId, 'customer');
    await insertRosterItem(t.db, orgId, user, {
      firstName: 'Cus',
      lastName: 'Tomer',
      email: user.email,
      updatedAt: new Date(),
    });
    return user;
  }
  const cardOf = (orgId: string, userId: string, createdAt?: Date) =>
    addSandboxCard(t.db, { orgId, userId }, sandboxCardNumbers.succeeds, createdAt);

  const subsOf = (userId: string) =>
    t.db.select().from(subscriptions).where(eq(subscriptions.customerUserId, userId));
  const chargesOf = async (orgId: string) =>
    (
      await t.db.select({ n: count() }).from(sandboxCharges).where(eq(sandboxCharges.orgId, orgId))
    )[0]!.n;
  const paidInvoicesOf = (subscriptionId: string) =>
    t.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.subscriptionId, subscriptionId), eq(invoices.status, 'paid')));
  const customerJar = async (email: string, orgId: string) =>
    (await logInAs(t.app, email, { profileType: 'use-customer', profileOrgId: orgId })).jar;

  // ================================================================ whose card

  describe('whose card', () => {
    it('another organisation’s card, a guardian’s card, a child’s card, a removed card and a card of the other processor are never the card on file: refused rows, nothing written or charged', async () => {
      const a = await newOrg();
      const b = await newOrg();
      const monthly = await product(a);
      const start = addDays(today(), 10);
      // Only a card in organisation B.
      const elsewhere = await customerOf(a.org.id);
      await addMembership(t.db, elsewhere.id, b.org.id, 'customer');
      await cardOf(b.org.id, elsewhere.id);
      // A child (with an address of their own) whose guardian has a card; and a guardian whose
      // child has one.
      const guardian = await customerOf(a.org.id);
      const child = await customerOf(a.org.id);
      await linkChild(t.db, guardian.id, child.id, a.org.id);
      await cardOf(a.org.id, guardian.id);
      const parent = await customerOf(a.org.id);
      const kid = await customerOf(a.org.id);
      await linkChild(t.db, parent.id, kid.id, a.org.id);
      await cardOf(a.org.id, kid.id);
      // A card removed.
      const removed = await customerOf(a.org.id);
      const gone = await cardOf(a.org.id, removed.id);
      await t.db
        .update(paymentMethods)
        .set({ removedAt: new Date() })
        .where(eq(paymentMethods.id, gone.id));
      // A card of Stripe while the sandbox charges.
      const stripeOnly = await customerOf(a.org.id);
      const sandboxCard = await cardOf(a.org.id, stripeOnly.id);
      await t.db
        .update(paymentMethods)
        .set({ processor: 'stripe' })
        .where(eq(paymentMethods.id, sandboxCard.id));

      const people = [elsewhere, child, parent, removed, stripeOnly];
      const refused = await importFile(
        a.jar,
        people.map((p) => `${p.email},${monthly.name},${card},${start}`).join('\n'),
      );
      expect(refused.status).toBe('refused');
      expect(refused.rowErrors.map((e) => [e.row, e.message])).toEqual(
        // Row 1 is the header.
        people.map((p, i) => [i + 2, `Customer ${p.email!.toLowerCase()} has no card on file`]),
      );
      await drainJobs(t.app);
      for (const p of [...people, guardian, kid]) expect(await subsOf(p.id)).toEqual([]);
      expect(await chargesOf(a.org.id)).toBe(0);
      expect(await chargesOf(b.org.id)).toBe(0);
    });

    it('the newest card is taken only among the customer’s own, valid ones: a newer removed card, a newer expired one and a newer one in another organisation are passed over', async () => {
      const a = await newOrg();
      const b = await newOrg();
      const monthly = await product(a);
      const start = addDays(today(), 10);
      const ann = await customerOf(a.org.id);
      await addMembership(t.db, ann.id, b.org.id, 'customer');
      const base = Date.now() - 10 * HOUR_MS;
      const own = await cardOf(a.org.id, ann.id, new Date(base));
      const removed = await cardOf(a.org.id, ann.id, new Date(base + HOUR_MS));
      await t.db
        .update(paymentMethods)
        .set({ removedAt: new Date() })
        .where(eq(paymentMethods.id, removed.id));
      const expired = await cardOf(a.org.id, ann.id, new Date(base + 2 * HOUR_MS));
      await t.db
        .update(paymentMethods)
        .set({ expYear: 2020, expMonth: 1 })
        .where(eq(paymentMethods.id, expired.id));
      await cardOf(b.org.id, ann.id, new Date(base + 3 * HOUR_MS));
      const done = await importFile(a.jar, `${ann.email},${monthly.name},${card},${start}`);
      expect(done.result).toMatchObject({ cardStarted: 1 });
      const [sub] = await subsOf(ann.id);
      expect(sub!.paymentMethodId).toBe(own.id);
      await drainJobs(t.app);
      expect(
        await renewSubscription(
          deps(),
          { orgId: a.org.id, subscriptionId: sub!.id },
          noonOf(start),
        ),
      ).toBe('paid');
      expect((await paidInvoicesOf(sub!.id)).map((i) => i.paymentMethodId)).toEqual([own.id]);
    });

    it('a card removed between the import and its start is not charged on the start date', async () => {
      const a = await newOrg();
      const monthly = await product(a);
      const start = addDays(today(), 10);
      const ann = await customerOf(a.org.id);
      const own = await cardOf(a.org.id, ann.id);
      const done = await importFile(a.jar, `${ann.email},${monthly.name},${card},${start}`);
      expect(done.result).toMatchObject({ cardStarted: 1 });
      await t.db
        .update(paymentMethods)
        .set({ removedAt: new Date() })
        .where(eq(paymentMethods.id, own.id));
      const [sub] = await subsOf(ann.id);
      await renewSubscription(deps(), { orgId: a.org.id, subscriptionId: sub!.id }, noonOf(start));
      expect(await chargesOf(a.org.id)).toBe(0);
    });
  });

  // ================================================================ who may start them

  describe('who may start card subscriptions', () => {
    it('staff with the till only, a customer, a guardian switched into their child, and another organisation’s owner cannot start one; an admin impersonating a customer cannot either', async () => {
      const a = await newOrg();
      const b = await newOrg();
      const monthly = await product(a);
      const start = addDays(today(), 10);
      const guardian = await customerOf(a.org.id);
      const child = await customerOf(a.org.id);
      await linkChild(t.db, guardian.id, child.id, a.org.id);
      await cardOf(a.org.id, child.id);
      const text = `${HEADER}\n${child.email},${monthly.name},${card},${start}`;
      const till = await signedInStaff(t.app, t.db, a.org.id, ['manage-point-of-sale']);
      const childJar = await customerJar(child.email!, a.org.id);
      const guardianJar = await customerJar(guardian.email!, a.org.id);
      const switched = await switchTo(t.app, guardianJar, child.id);
      expect([303, 403]).toContain(switched.statusCode);
      const admin = await insertTestUser(t.db, { role: 'admin' });
      const adminJar = (await logInAs(t.app, admin.email!)).jar;
      await switchTo(t.app, adminJar, child.id);
      for (const jar of [till.jar, childJar, guardianJar, adminJar]) {
        const created = await calls.create(jar, {
          kind: 'assignments',
          fileName: 'a.csv',
          totalBytes: Buffer.byteLength(text),
        });
        expect(created.statusCode).toBeGreaterThanOrEqual(400);
      }
      // B's owner imports into B: A's customer is no customer of B's.
      const theirs = await calls.importFile(b.jar, 'assignments', text, 4096);
      expect(theirs.status).toBe('refused');
      await drainJobs(t.app);
      expect(await subsOf(child.id)).toEqual([]);
      expect(await chargesOf(a.org.id)).toBe(0);
    });

    it('with no payment processor (PAYMENT_PROCESSOR=none) a card row is refused with “Payment processing not available” and nothing is written', async () => {
      const none = await createTestApp(kind, { env: { PAYMENT_PROCESSOR: 'none' } });
      try {
        const owner = await newOrgWithOwner(none.app, none.db);
        // The catalogue makes no product without a processor: one kept from before (its
        // processor's id too), and a customer with a card kept from before.
        await none.db.insert(products).values({
          orgId: owner.org.id,
          name: 'Monthly',
          type: 'recurring',
          schedule: 'month',
          priceMinor: 9_900,
          processorProductId: 'prod_sandbox_kept',
        });
        const ann = await insertTestUser(none.db);
        await addMembership(none.db, ann.id, owner.org.id, 'customer');
        await insertRosterItem(none.db, owner.org.id, ann, { email: ann.email });
        await addSandboxCard(
          none.db,
          { orgId: owner.org.id, userId: ann.id },
          sandboxCardNumbers.succeeds,
        );
        const done = await importCalls(none.app).importFile(
          owner.jar,
          'assignments',
          `${HEADER}\n${ann.email},Monthly,${card},${addDays(today(), 10)}`,
          4096,
        );
        expect(done.status).toBe('refused');
        expect(done.rowErrors.map((e) => e.message)).toEqual([chargeFlowMessages.noProcessor]);
        await drainJobs(none.app);
        expect(
          await none.db
            .select()
            .from(subscriptions)
            .where(eq(subscriptions.customerUserId, ann.id)),
        ).toEqual([]);
      } finally {
        await none.close();
      }
    }, 60_000);
  });

  // ================================================================ charged once

  describe('charged once', () => {
    it('the same file imported twice at once, and a file naming the customer and product twice, give one subscription charged once', async () => {
      const a = await newOrg();
      const monthly = await product(a);
      const start = addDays(today(), 7);
      const ann = await customerOf(a.org.id);
      await cardOf(a.org.id, ann.id);
      const text = `${HEADER}\n${ann.email},${monthly.name},${card},${start}`;
      const ids = await Promise.all([
        calls.uploaded(a.jar, 'assignments', text),
        calls.uploaded(a.jar, 'assignments', text),
      ]);
      const started = await Promise.all(ids.map((id) => calls.start(a.jar, id)));
      expect(started.map((s) => s.statusCode)).toEqual([200, 200]);
      await drainJobs(t.app);
      const twice = await importFile(
        a.jar,
        [
          `${ann.email},${monthly.name},${card},${start}`,
          `${ann.email!.toUpperCase()},${monthly.name},${card},${addDays(start, 1)}`,
        ].join('\n'),
      );
      expect(twice.status).toBe('refused');
      const subs = await subsOf(ann.id);
      expect(subs).toHaveLength(1);
      const target = { orgId: a.org.id, subscriptionId: subs[0]!.id };
      await Promise.all([1, 2, 3].map(() => renewSubscription(deps(), target, noonOf(start))));
      expect(await chargesOf(a.org.id)).toBe(1);
    });

    it('the start job run again and concurrently, with the sweep, and renewals racing on the start date: one processor subscription, one charge', async () => {
      const a = await newOrg();
      const monthly = await product(a);
      const start = addDays(today(), 5);
      const ann = await customerOf(a.org.id);
      await cardOf(a.org.id, ann.id);
      expect(
        (await importFile(a.jar, `${ann.email},${monthly.name},${card},${start}`)).result,
      ).toMatchObject({ cardStarted: 1 });
      const [sub] = await subsOf(ann.id);
      const payload = { orgId: a.org.id, subscriptionIds: [sub!.id] };
      // Before the job is drained: the sweep (an hour on) and four workers at once.
      const swept: Array<{ orgId: string; subscriptionIds: string[] }> = [];
      const jobs = {
        enqueue: async (_name: JobName, job: object) => {
          swept.push(job as (typeof swept)[number]);
          return 'job';
        },
      };
      await Promise.all([
        ...[1, 2, 3, 4].map(() =>
          startCardSubscriptions({ db: t.db, processor: t.app.paymentProcessor }, payload),
        ),
        queuePendingCardStarts(t.db, jobs, 'sandbox', new Date(Date.now() + HOUR_MS)),
      ]);
      for (const job of swept.filter((s) => s.orgId === a.org.id))
        await startCardSubscriptions({ db: t.db, processor: t.app.paymentProcessor }, job);
      await drainJobs(t.app);
      const [after] = await subsOf(ann.id);
      expect(after!.processorSubscriptionId).toBeTruthy();
      const target = { orgId: a.org.id, subscriptionId: sub!.id };
      const outcomes = await Promise.all(
        [1, 2, 3, 4].map(() => renewSubscription(deps(), target, noonOf(start))),
      );
      expect(outcomes.filter((o) => o === 'paid')).toHaveLength(1);
      expect(await chargesOf(a.org.id)).toBe(1);
      // Nothing pending for the sweep any more.
      swept.length = 0;
      await queuePendingCardStarts(t.db, jobs, 'sandbox', new Date(Date.now() + HOUR_MS));
      expect(swept.flatMap((s) => s.subscriptionIds)).not.toContain(sub!.id);
    });

    it('a card start and an invitation to the same product never both stand: whichever comes second is left alone, no email sent', async () => {
      const a = await newOrg();
      const monthly = await product(a);
      const ann = await customerOf(a.org.id);
      const bo = await customerOf(a.org.id);
      await cardOf(a.org.id, ann.id);
      await cardOf(a.org.id, bo.id);
      const start = addDays(today(), 4);
      const invite = 'create-customer-subscription-invite';
      expect(
        (await importFile(a.jar, `${ann.email},${monthly.name},${card},${start}`)).result,
      ).toMatchObject({ cardStarted: 1 });
      expect(
        (await importFile(a.jar, `${ann.email},${monthly.name},${invite},`)).result,
      ).toMatchObject({ invited: 0, unchanged: 1 });
      expect(
        (await importFile(a.jar, `${bo.email},${monthly.name},${invite},`)).result,
      ).toMatchObject({ invited: 1 });
      expect(
        (await importFile(a.jar, `${bo.email},${monthly.name},${card},${start}`)).result,
      ).toMatchObject({ cardStarted: 0, unchanged: 1 });
      expect(await subsOf(bo.id)).toEqual([]);
    });

    it('a customer who already has the product running (paid by card in the Shop or paid outside) is left alone: nothing new to charge', async () => {
      const a = await newOrg();
      const monthly = await product(a);
      const ann = await customerOf(a.org.id);
      await cardOf(a.org.id, ann.id);
      const outside = await importFile(
        a.jar,
        `${ann.email},${monthly.name},start-customer-subscription-for-external-payment,`,
      );
      expect(outside.status).toBe('done');
      const again = await importFile(
        a.jar,
        `${ann.email},${monthly.name},${card},${addDays(today(), 4)}`,
      );
      expect(again.result).toMatchObject({ cardStarted: 0, unchanged: 1 });
      expect(await subsOf(ann.id)).toHaveLength(1);
    });
  });

  // ================================================================ money

  describe('money', () => {
    it('the agreed price is charged exactly: percentages that round, and fixed amounts, as the file’s rules compute them', async () => {
      const a = await newOrg();
      const cases: Array<[number, 'percentage' | 'fixed_amount', string]> = [
        [999, 'percentage', '12.5'],
        [1_000, 'percentage', '33.33'],
        [1_001, 'percentage', '50'],
        [9_900, 'fixed_amount', '12.34'],
        [9_900, 'fixed_amount', '98.99'],
      ];
      const start = addDays(today(), 3);
      for (const [price, type, amount] of cases) {
        const p = await product(a, { priceMinor: price });
        const ann = await customerOf(a.org.id);
        await cardOf(a.org.id, ann.id);
        const done = await importFile(
          a.jar,
          `${ann.email},${p.name},${card},${start},,${type},${amount}`,
        );
        expect(done.result, `${price} ${type} ${amount}`).toMatchObject({ cardStarted: 1 });
        const expected = agreedPriceMinor(price, { type, amount: Number(amount) });
        expect(typeof expected).toBe('number');
        const [sub] = await subsOf(ann.id);
        expect(sub!.priceMinor, `${price} ${type} ${amount}`).toBe(expected);
        await drainJobs(t.app);
        await renewSubscription(
          deps(),
          { orgId: a.org.id, subscriptionId: sub!.id },
          noonOf(start),
        );
        const paid = await paidInvoicesOf(sub!.id);
        expect(
          paid.map((i) => i.totalMinor),
          `${price} ${type} ${amount}`,
        ).toEqual([expected]);
        const charged = await t.db
          .select()
          .from(sandboxCharges)
          .where(eq(sandboxCharges.orgId, a.org.id));
        expect(charged.map((c) => c.amountMinor)).toContain(expected);
      }
    });

    it('nothing is charged before the start date in the organisation’s own time zone (UTC+14 and UTC−11)', async () => {
      for (const timeZone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
        const a = await newOrg();
        await t.db
          .update(organizations)
          .set({ attributes: { timezone: timeZone } })
          .where(eq(organizations.id, a.org.id));
        const monthly = await product(a);
        const ann = await customerOf(a.org.id);
        await cardOf(a.org.id, ann.id);
        // Tomorrow in the organisation's calendar is a start the file may name (whatever day it
        // is in UTC); today there is not.
        const refused = await importFile(
          a.jar,
          `${ann.email},${monthly.name},${card},${today(timeZone)}`,
        );
        expect(refused.status, timeZone).toBe('refused');
        const start = addDays(today(timeZone), 1);
        const done = await importFile(a.jar, `${ann.email},${monthly.name},${card},${start}`);
        expect(done.result, timeZone).toMatchObject({ cardStarted: 1 });
        await drainJobs(t.app);
        const [sub] = await subsOf(ann.id);
        const target = { orgId: a.org.id, subscriptionId: sub!.id };
        const midnight = startOfDay(start, orgTimeZone(timeZone));
        expect(await renewSubscription(deps(), target, new Date(midnight - 60_000)), timeZone).toBe(
          'not-due',
        );
        expect(await chargesOf(a.org.id), timeZone).toBe(0);
        expect(await renewSubscription(deps(), target, new Date(midnight + 60_000)), timeZone).toBe(
          'paid',
        );
        expect(await chargesOf(a.org.id), timeZone).toBe(1);
      }
    });

    it('a start date today, in the past, or beyond the charge flow’s window is refused; the last day of the window is taken', async () => {
      const a = await newOrg();
      const monthly = await product(a);
      const weekly = await product(a, { schedule: 'week' });
      const ann = await customerOf(a.org.id);
      await cardOf(a.org.id, ann.id);
      for (const [p, start] of [
        [monthly, today()],
        [monthly, addDays(today(), -3)],
        [monthly, addDays(today(), 31)],
        [weekly, addDays(today(), 7)],
        [monthly, '2999-12-31'],
      ] as const) {
        const done = await importFile(a.jar, `${ann.email},${p.name},${card},${start}`);
        expect(done.status, `${p.name} ${start}`).toBe('refused');
        expect(await subsOf(ann.id)).toEqual([]);
      }
      const edge = await importFile(
        a.jar,
        `${ann.email},${monthly.name},${card},${addDays(today(), 30)}`,
      );
      expect(edge.result).toMatchObject({ cardStarted: 1 });
      expect(await chargesOf(a.org.id)).toBe(0);
    });

    it('a customer who cancels before the start (through the Shop route) is never charged: before or after the start job, the start date ends it', async () => {
      for (const order of ['cancel-before-job', 'cancel-after-job'] as const) {
        const a = await newOrg();
        const monthly = await product(a);
        const ann = await customerOf(a.org.id);
        await cardOf(a.org.id, ann.id);
        const start = addDays(today(), 6);
        const id = await calls.uploaded(
          a.jar,
          'assignments',
          `${HEADER}\n${ann.email},${monthly.name},${card},${start}`,
        );
        expect((await calls.start(a.jar, id)).statusCode).toBe(200);
        // The import runs; the start job it queued may or may not have run yet.
        await drainJobs(t.app);
        const [sub] = await subsOf(ann.id);
        if (order === 'cancel-before-job')
          await t.db
            .update(subscriptions)
            .set({ processorSubscriptionId: null })
            .where(eq(subscriptions.id, sub!.id));
        const jar = await customerJar(ann.email!, a.org.id);
        const cancelled = await t.app.inject({
          method: 'POST',
          url: `/api/shop/subscriptions/${sub!.id}/cancel`,
          payload: { orgId: a.org.id },
          headers: jar.headers(),
        });
        expect(cancelled.statusCode, cancelled.body).toBe(200);
        expect(cancelled.json<{ endsOn: string }>().endsOn).toBe(start);
        await startCardSubscriptions(
          { db: t.db, processor: t.app.paymentProcessor },
          { orgId: a.org.id, subscriptionIds: [sub!.id] },
        );
        const target = { orgId: a.org.id, subscriptionId: sub!.id };
        for (const day of [start, addDays(start, 31), addDays(start, 62)])
          await renewSubscription(deps(), target, noonOf(day));
        expect(await chargesOf(a.org.id), order).toBe(0);
        expect((await subsOf(ann.id))[0]!.status, order).toBe('cancelled');
      }
    });

    it('another customer cannot cancel (or learn of) someone else’s scheduled card subscription', async () => {
      const a = await newOrg();
      const monthly = await product(a);
      const ann = await customerOf(a.org.id);
      const bo = await customerOf(a.org.id);
      await cardOf(a.org.id, ann.id);
      await importFile(a.jar, `${ann.email},${monthly.name},${card},${addDays(today(), 6)}`);
      const [sub] = await subsOf(ann.id);
      const jar = await customerJar(bo.email!, a.org.id);
      const tried = await t.app.inject({
        method: 'POST',
        url: `/api/shop/subscriptions/${sub!.id}/cancel`,
        payload: { orgId: a.org.id },
        headers: jar.headers(),
      });
      expect(tried.statusCode).toBe(404);
      expect((await subsOf(ann.id))[0]!.status).toBe('scheduled');
    });
  });

  // ================================================================ robustness

  describe('robustness', () => {
    it('one job holding a deleted product’s, a removed card’s, an unknown id and another organisation’s subscription still starts the good one, and starts none under the wrong organisation', async () => {
      const a = await newOrg();
      const b = await newOrg();
      const start = addDays(today(), 8);
      const made: Record<string, string> = {};
      for (const who of ['good', 'deleted', 'removed'] as const) {
        const p = await product(a);
        const ann = await customerOf(a.org.id);
        const c = await cardOf(a.org.id, ann.id);
        const id = await calls.uploaded(
          a.jar,
          'assignments',
          `${HEADER}\n${ann.email},${p.name},${card},${start}`,
        );
        expect((await calls.start(a.jar, id)).statusCode).toBe(200);
        await drainJobs(t.app);
        const [sub] = await subsOf(ann.id);
        await t.db
          .update(subscriptions)
          .set({ processorSubscriptionId: null })
          .where(eq(subscriptions.id, sub!.id));
        if (who === 'deleted')
          await t.db.update(products).set({ deleted: true }).where(eq(products.id, p.id));
        if (who === 'removed')
          await t.db
            .update(paymentMethods)
            .set({ removedAt: new Date() })
            .where(eq(paymentMethods.id, c.id));
        made[who] = sub!.id;
      }
      const p = await product(b);
      const bob = await customerOf(b.org.id);
      await cardOf(b.org.id, bob.id);
      await importFile(b.jar, `${bob.email},${p.name},${card},${start}`);
      const [theirs] = await subsOf(bob.id);
      await t.db
        .update(subscriptions)
        .set({ processorSubscriptionId: null })
        .where(eq(subscriptions.id, theirs!.id));

      const outcomes = await startCardSubscriptions(
        { db: t.db, processor: t.app.paymentProcessor },
        {
          orgId: a.org.id,
          subscriptionIds: [made.deleted!, made.removed!, randomUUID(), theirs!.id, made.good!],
        },
      );
      expect(outcomes).toEqual([
        expect.any(String),
        'not-startable',
        'not-startable',
        'not-startable',
        'started',
      ]);
      const rows = await t.db
        .select()
        .from(subscriptions)
        .where(inArray(subscriptions.id, [made.good!, made.removed!, theirs!.id]));
      const byId = new Map(rows.map((r) => [r.id, r.processorSubscriptionId]));
      expect(byId.get(made.good!)).toBeTruthy();
      expect(byId.get(made.removed!)).toBeNull();
      expect(byId.get(theirs!.id)).toBeNull();
    });
  });

  // ================================================================ devices

  describe('devices', () => {
    it('the scheduled subscription replicates to the customer’s family with its card and first billing date, and to no other customer', async () => {
      const a = await newOrg();
      const monthly = await product(a);
      const guardian = await customerOf(a.org.id);
      const child = await customerOf(a.org.id);
      const other = await customerOf(a.org.id);
      await linkChild(t.db, guardian.id, child.id, a.org.id);
      const c = await cardOf(a.org.id, child.id);
      const start = addDays(today(), 9);
      await importFile(a.jar, `${child.email},${monthly.name},${card},${start}`);
      const [sub] = await subsOf(child.id);
      const person = async (user: { id: string; email: string | null }): Promise<Person> => ({
        id: user.id,
        email: user.email!,
        jar: await customerJar(user.email!, a.org.id),
      });
      type Doc = { id: string; [key: string]: unknown };
      const pulled = async (who: Person) => {
        const response = await pullAs(t, who, 'purchases', '?batchSize=1000');
        expect(response.statusCode, response.body).toBe(200);
        return response.json<{ documents: Doc[] }>().documents;
      };
      const seen = (await pulled(await person(guardian))).find((d) => d.id === sub!.id);
      expect(seen).toMatchObject({
        status: 'scheduled',
        nextBillingDate: start,
        card: { brand: c.brand, last4: c.last4 },
      });
      expect((await pulled(await person(other))).map((d) => d.id)).not.toContain(sub!.id);
      const b = await newOrg();
      await addMembership(t.db, other.id, b.org.id, 'customer');
      const elsewhere = await pullAs(
        t,
        {
          id: other.id,
          email: other.email!,
          jar: await customerJar(other.email!, b.org.id),
        },
        'purchases',
        '?batchSize=1000',
      );
      expect(elsewhere.body).not.toContain(sub!.id);
    });
  });
});

// 2026-11-24 15:00 UTC: the 24th in New York, the default zone of a new organisation.
const benchNow = new Date('2026-11-24T15:00:00.000Z');
const benchStart = '2026-12-10';

/**
 * The same with Stripe (its wire server): the processor's subscription is the one that bills, so
 * a cancellation that never reaches it, or one it made that we never recorded, is money taken.
 */
describe.each(testDatabaseKinds)(
  'card subscription starts with Stripe under attack on %s',
  (kind) => {
    let db: Db;
    let wire: StripeWireServer;
    let stripe: PaymentProcessor;
    let close: () => Promise<void>;

    beforeAll(async () => {
      ({ db, wire, stripe, close } = await startStripeBench(kind));
    });
    afterAll(() => close());

    const customerWithCard = () => stripeCustomerWithCard(db, stripe);
    /**
     * The database as a service sees it, but the start job runs to its end just before the
     * service's transaction opens: the race between what it read and what it writes.
     */
    const startingBeforeTransactions = (payload: { orgId: string; subscriptionIds: string[] }) =>
      new Proxy(db, {
        get(target, prop) {
          if (prop === 'transaction')
            return async (...args: Parameters<Db['transaction']>) => {
              await startCardSubscriptions({ db, processor: stripe }, payload);
              return target.transaction(...args);
            };
          const value = Reflect.get(target, prop, target) as unknown;
          return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
        },
      });
    type Bench = Awaited<ReturnType<typeof customerWithCard>>;

    async function importRow(o: Bench) {
      const queued: Array<{ orgId: string; subscriptionIds: string[] }> = [];
      const row: AssignmentRow & { row: number; cells: string[] } = {
        row: 1,
        cells: [],
        email: o.customer.email!.toLowerCase(),
        productId: o.productId,
        action: 'start-stripe-subscription',
        startDate: benchStart,
        endDate: null,
        discount: null,
        priceMinor: 9_900,
      };
      await db.transaction((tx) =>
        importAssignmentBatch(
          tx,
          {
            orgId: o.org.id,
            staffUserId: null,
            now: benchNow,
            payments: {
              mailer: { kind: 'outbox', send: async () => undefined },
              publicUrl: 'http://localhost',
              processor: 'stripe',
              jobs: {
                enqueue: async (_name, payload) => {
                  queued.push(payload as (typeof queued)[number]);
                  return 'job';
                },
              },
            },
          },
          [row],
        ),
      );
      return queued[0]!;
    }
    const mailer = { kind: 'outbox' as const, send: async () => undefined };
    const buyerOf = (o: Bench) => ({
      orgId: o.org.id,
      userId: o.customer.id,
      actorUserId: o.customer.id,
    });
    const rowOf = async (id: string) =>
      (await db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
    /** Stripe's subscriptions made for this organisation (each test has its own). */
    const stripeSubsOf = (orgId: string) =>
      wire
        .created('subscription')
        .flatMap((s) => {
          const current = wire.object(s.id as string);
          return current ? [current] : [];
        })
        .filter((s) => (s.metadata as { orgId?: string } | undefined)?.orgId === orgId);
    const failingCancel = (): PaymentProcessor => ({
      ...stripe,
      cancelSubscriptionAtPeriodEnd: async () => {
        throw new Error('Stripe could not be reached');
      },
    });
    /** The start job, retried until it settles (a retry limit of 5, then the sweep). */
    async function settle(payload: { orgId: string; subscriptionIds: string[] }) {
      for (let i = 0; i < 6; i++) {
        try {
          await startCardSubscriptions({ db, processor: stripe }, payload);
        } catch {
          // retried
        }
      }
      const swept: Array<{ orgId: string; subscriptionIds: string[] }> = [];
      await queuePendingCardStarts(
        db,
        {
          enqueue: async (_name, job) => {
            swept.push(job as (typeof swept)[number]);
            return 'job';
          },
        },
        'stripe',
        new Date(Date.now() + HOUR_MS),
      );
      for (const job of swept.filter((s) => s.orgId === payload.orgId))
        await startCardSubscriptions({ db, processor: stripe }, job).catch(() => undefined);
    }

    it('a customer who cancelled before the start is not billed by Stripe when the start job’s own cancellation is lost: its retry and the sweep ask again', async () => {
      const o = await customerWithCard();
      const payload = await importRow(o);
      const id = payload.subscriptionIds[0]!;
      // The customer cancels before the job ran: nothing at Stripe to stop yet.
      await cancelAtPeriodEnd({ db, processor: stripe, mailer }, buyerOf(o), id, benchNow);
      // The job makes Stripe's subscription, writes its id, and its cancellation does not get
      // through (Stripe out of reach for that request).
      await expect(
        startCardSubscriptions({ db, processor: failingCancel() }, payload),
      ).rejects.toThrow();
      // Its retries, the sweep: all it would ever do again.
      await settle(payload);
      const sub = await rowOf(id);
      expect(sub.status).toBe('cancel-at-period-end');
      const made = stripeSubsOf(o.org.id);
      expect(made).toHaveLength(1);
      expect(made[0]).toMatchObject({
        id: sub.processorSubscriptionId,
        cancel_at_period_end: true,
      });
    });

    it('a cancellation that raced the start and could not reach Stripe is not lost when the customer asks again', async () => {
      const o = await customerWithCard();
      const payload = await importRow(o);
      const id = payload.subscriptionIds[0]!;
      // The start job finishes between the cancellation's read and its write (it sees the
      // subscription still scheduled); the cancellation then finds its id and asks Stripe, which
      // is out of reach.
      const racing = startingBeforeTransactions(payload);
      await expect(
        cancelAtPeriodEnd(
          { db: racing, processor: failingCancel(), mailer },
          buyerOf(o),
          id,
          benchNow,
        ),
      ).rejects.toThrow();
      // The customer sees an error and cancels again, Stripe reachable this time.
      const again = await cancelAtPeriodEnd(
        { db, processor: stripe, mailer },
        buyerOf(o),
        id,
        benchNow,
      );
      expect(again.status).toBe('cancel-at-period-end');
      await settle(payload);
      const sub = await rowOf(id);
      const made = stripeSubsOf(o.org.id);
      expect(made).toHaveLength(1);
      expect(made[0]).toMatchObject({
        id: sub.processorSubscriptionId,
        cancel_at_period_end: true,
      });
    });

    it('a start Stripe made but we never heard of, followed by the customer replacing their card, leaves no Stripe subscription we do not know of (and so cannot cancel)', async () => {
      const o = await customerWithCard();
      const payload = await importRow(o);
      const id = payload.subscriptionIds[0]!;
      // Stripe makes it on the first try; the answer is lost (and on the SDK's own retries).
      wire.failNextOn('/v1/subscriptions', 'drop', 'drop', 'drop');
      await expect(startCardSubscriptions({ db, processor: stripe }, payload)).rejects.toThrow();
      // The customer puts a new card on file before the job's retry.
      const replaced = await replaceCardOnFile({ db, processor: stripe }, buyerOf(o), {
        kind: 'processor-payment-method',
        processorPaymentMethodId: 'pm_card_mastercard',
      });
      expect(replaced.valid).toBe(true);
      await settle(payload);
      // And cancels before the start.
      await cancelAtPeriodEnd({ db, processor: stripe, mailer }, buyerOf(o), id, benchNow);
      await settle(payload);
      const sub = await rowOf(id);
      const made = stripeSubsOf(o.org.id);
      // Every subscription Stripe holds for it is ours, recorded, and stopped — and charges the
      // card now on file, not the one the lost first ask named.
      expect(made.map((s) => s.id)).toEqual([sub.processorSubscriptionId]);
      for (const s of made) expect(s).toMatchObject({ cancel_at_period_end: true });
      const [onFile] = await db
        .select()
        .from(paymentMethods)
        .where(eq(paymentMethods.id, sub.paymentMethodId!));
      expect(made[0]!.default_payment_method).toBe(onFile!.processorPaymentMethodId);
    });

    it('a card replaced while the start job is asking Stripe is the card Stripe charges (not the old one our rows no longer name)', async () => {
      const o = await customerWithCard();
      const payload = await importRow(o);
      const id = payload.subscriptionIds[0]!;
      // Replace card reads the renewing subscriptions (no Stripe id yet: nothing to tell Stripe);
      // the start job then makes Stripe's subscription on the old card; our row gets the new one.
      const racing = startingBeforeTransactions(payload);
      const replaced = await replaceCardOnFile({ db: racing, processor: stripe }, buyerOf(o), {
        kind: 'processor-payment-method',
        processorPaymentMethodId: 'pm_card_mastercard',
      });
      expect(replaced.valid).toBe(true);
      await settle(payload);
      const sub = await rowOf(id);
      const [onFile] = await db
        .select()
        .from(paymentMethods)
        .where(eq(paymentMethods.id, sub.paymentMethodId!));
      const made = stripeSubsOf(o.org.id);
      expect(made.map((s) => s.id)).toEqual([sub.processorSubscriptionId]);
      expect(made[0]!.default_payment_method).toBe(onFile!.processorPaymentMethodId);
    });

    it('cancelled before the start with Stripe reachable: one Stripe subscription, set to end before its first invoice', async () => {
      const o = await customerWithCard();
      const payload = await importRow(o);
      const id = payload.subscriptionIds[0]!;
      await cancelAtPeriodEnd({ db, processor: stripe, mailer }, buyerOf(o), id, benchNow);
      await settle(payload);
      const sub = await rowOf(id);
      const made = stripeSubsOf(o.org.id);
      expect(made.map((s) => s.id)).toEqual([sub.processorSubscriptionId]);
      expect(made[0]).toMatchObject({ cancel_at_period_end: true });
    });
  },
);
