import { randomUUID } from 'node:crypto';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  invoices,
  organizations,
  productInvites,
  products,
  sandboxCharges,
  subscriptions,
} from '@platform/schema/db';
import { addPeriods } from '@platform/schema/payments/billing-calendar';
import { packageInviteMessages } from '@platform/schema/payments/package-invite.zod';
import {
  addDays,
  dayKeyOf,
  orgTimeZone,
  type DayKey,
} from '@platform/schema/time-tracking/org-calendar';
import type { PaymentProcessor } from '../adapters/payments/port.ts';
import { SANDBOX_SUBSCRIPTION_PREFIX } from '../adapters/payments/sandbox.ts';
import type { Db } from '../db/open-database.ts';
import {
  addMembership,
  insertTestOrg,
  insertTestUser,
  logInAs,
  newOrgWithOwner,
} from '../testing/auth-fixtures.ts';
import type { CookieJar } from '../testing/cookie-jar.ts';
import { importCalls } from '../testing/import-fixtures.ts';
import {
  addSandboxCard,
  noonOf,
  putCardOnFile,
  sandboxCardNumbers,
} from '../testing/renewal-fixtures.ts';
import { stripeEvent, stripeSubscription } from '../testing/stripe-events.ts';
import { startStripeBench, stripeCustomerWithCard } from '../testing/stripe-fixtures.ts';
import type { StripeWireServer } from '../testing/stripe-wire-server.ts';
import { insertRosterItem, waitForVisibility } from '../testing/sync-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { runCharge, totalCharge } from './charge.service.ts';
import { renewSubscription } from './renewal.service.ts';
import { windDownAgreedEnds } from './subscription-ends.service.ts';
import { receiveProcessorEvent } from './webhook.service.ts';

const invite = 'create-customer-subscription-invite';
const noJobs = { enqueue: async () => 'job' };

/**
 * Adversarial review of the agreed end of subscriptions a processor bills (commits 420dd5a and
 * 41160cf, decision 0073): every test asserts the safe behaviour. Its four findings (an
 * invitation paid after its end through a refused card's retry; a Stripe subscription started
 * after the sweep set its row to stop; a late event making a stopping subscription renew again;
 * refusing rows holding the sweep back) are mended and kept here.
 */
describe.each(testDatabaseKinds)('agreed ends under attack on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let owner: { org: { id: string }; jar: CookieJar };
  let monthly: { id: string; name: string };
  const today = (): DayKey => dayKeyOf(Date.now(), orgTimeZone(undefined));
  const charges = async () => (await t.db.select({ n: count() }).from(sandboxCharges))[0]!.n;
  const deps = () => ({ db: t.db, processor: t.app.paymentProcessor, jobs: t.app.jobs });
  const subOf = async (id: string) =>
    (await t.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
  const subsOfUser = async (userId: string) =>
    t.db.select().from(subscriptions).where(eq(subscriptions.customerUserId, userId));
  const inviteOf = async (userId: string) =>
    (await t.db.select().from(productInvites).where(eq(productInvites.customerUserId, userId)))[0]!;

  async function customer(orgId = owner.org.id) {
    const user = await insertTestUser(t.db, { firstName: 'End', lastName: 'Tester' });
    await addMembership(t.db, user.id, orgId, 'customer');
    const item = await insertRosterItem(
      t.db,
      orgId,
      { id: user.id, email: user.email },
      { firstName: 'End', lastName: 'Tester', updatedAt: new Date() },
    );
    return Object.assign(user, { rosterId: item.id });
  }

  async function invitedWithEnd(end: DayKey) {
    const user = await customer();
    const done = await importCalls(t.app).importFile(
      owner.jar,
      'assignments',
      `${user.email},${monthly.name},${invite},,${end}`,
      4096,
    );
    expect(done.result).toMatchObject({ invited: 1 });
    const { jar } = await logInAs(t.app, user.email!, {
      profileType: 'use-customer',
      profileOrgId: owner.org.id,
    });
    return { user, jar };
  }

  const pay = (jar: CookieJar, inviteId: string, extra: Record<string, unknown> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/package-invite',
      headers: jar.headers(),
      payload: { action: 'accept-package-invite', inviteId, ...extra },
    });
  const newCard = (number: string) => ({
    card: { number: number.replaceAll(' ', ''), expMonth: 12, expYear: 2040, cvc: '123' },
  });

  /** A card subscription the sandbox renews, written as the import and its start job leave it. */
  async function sandboxSubscription(
    values: { nextBillingDate: DayKey; endsOn: DayKey | null; startedOn?: DayKey },
    orgId = owner.org.id,
    productId = monthly.id,
    cardNumber: string = sandboxCardNumbers.succeeds,
  ) {
    const user = await customer(orgId);
    const card = await addSandboxCard(t.db, { orgId, userId: user.id }, cardNumber);
    const [row] = await t.db
      .insert(subscriptions)
      .values({
        orgId,
        customerUserId: user.id,
        productId,
        productName: 'Monthly',
        priceMinor: 9_900,
        status: 'active',
        startedOn: values.startedOn ?? addPeriods(values.nextBillingDate, 'month', -1),
        nextBillingDate: values.nextBillingDate,
        endsOn: values.endsOn,
        externalPayments: false,
        paymentMethodId: card.id,
        card: {
          brand: card.brand,
          last4: card.last4,
          expMonth: card.expMonth,
          expYear: card.expYear,
        },
        processorSubscriptionId: `${SANDBOX_SUBSCRIPTION_PREFIX}${randomUUID()}`,
      })
      .returning();
    return row!;
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    owner = await newOrgWithOwner(t.app, t.db);
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/catalogue/products',
      payload: {
        name: `Unlimited ${randomUUID().slice(0, 6)}`,
        type: 'recurring',
        schedule: 'month',
        priceMinor: 9_900,
      },
      headers: owner.jar.headers(),
    });
    expect(made.statusCode, made.body).toBe(201);
    monthly = made.json<{ id: string; name: string }>();
  }, 60_000);
  afterAll(() => t.close());

  it('an invitation whose first card was refused cannot be paid once its agreed end has come', async () => {
    const end = addDays(today(), 20);
    const { user, jar } = await invitedWithEnd(end);
    const inv = await inviteOf(user.id);
    const refused = await pay(jar, inv.id, newCard(sandboxCardNumbers.declined));
    expect(refused.json<{ valid: boolean }>().valid, refused.body).toBe(false);
    expect((await inviteOf(user.id)).invoiceId).not.toBeNull();

    // The end comes (as the existing test makes it come) before the customer tries again.
    await t.db
      .update(productInvites)
      .set({ endDate: today() })
      .where(eq(productInvites.id, inv.id));
    const before = await charges();
    const again = await pay(jar, inv.id, newCard(sandboxCardNumbers.succeeds));
    expect(again.statusCode, again.body).toBe(422);
    expect(again.body).toContain(packageInviteMessages.endPassed);
    expect(await charges()).toBe(before);
    expect(await subsOfUser(user.id)).toEqual([]);
  });

  it('a request cannot give or strip an end: fields in the payment body are ignored, the end read is the invitation’s', async () => {
    const end = addDays(today(), 50);
    const { user, jar } = await invitedWithEnd(end);
    const inv = await inviteOf(user.id);
    const read = await t.app.inject({
      method: 'POST',
      url: '/api/package-invite',
      headers: jar.headers(),
      payload: { action: 'get-package-invite', inviteId: inv.id },
    });
    expect(read.json()).toMatchObject({ endDate: end });
    const paid = await pay(jar, inv.id, {
      ...newCard(sandboxCardNumbers.succeeds),
      endsOn: null,
      endDate: null,
    });
    expect(paid.json<{ valid: boolean }>().valid, paid.body).toBe(true);
    const [sub] = await subsOfUser(user.id);
    expect(sub).toMatchObject({ endsOn: end });
    const [invoice] = await t.db
      .select()
      .from(invoices)
      .where(eq(invoices.id, inv.invoiceId ?? sub!.firstInvoiceId!));
    expect(invoice?.endsOn).toBe(end);

    // Another organisation's staff cannot read it.
    const other = await newOrgWithOwner(t.app, t.db);
    const theirs = await t.app.inject({
      method: 'POST',
      url: '/api/package-invite',
      headers: other.jar.headers(),
      payload: { action: 'get-package-invite', inviteId: inv.id },
    });
    expect(theirs.statusCode).not.toBe(200);
    expect(theirs.body).not.toContain(end);
  });

  it('a staff member’s own checkout (Total charge) cannot set an end from its body', async () => {
    const user = await customer();
    const card = await addSandboxCard(
      t.db,
      { orgId: owner.org.id, userId: user.id },
      sandboxCardNumbers.succeeds,
    );
    const total = await t.app.inject({
      method: 'POST',
      url: '/api/charges/total',
      headers: owner.jar.headers(),
      payload: {
        rosterId: user.rosterId,
        customerUserId: user.id,
        productId: monthly.id,
        couponId: null,
        paymentMethodId: card.id,
        priceMinor: null,
        startDate: null,
        prorationMode: 'charge-prorated',
        endsOn: addDays(today(), 3),
        endDate: addDays(today(), 3),
      },
    });
    expect(total.statusCode, total.body).toBe(200);
    const rows = await t.db.select().from(invoices).where(eq(invoices.customerUserId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.endsOn).toBeNull();
    const run = await t.app.inject({
      method: 'POST',
      url: '/api/charges/run',
      headers: owner.jar.headers(),
      payload: { invoiceId: rows[0]!.id, endsOn: addDays(today(), 3) },
    });
    expect(run.json<{ valid: boolean }>().valid, run.body).toBe(true);
    const [sub] = await subsOfUser(user.id);
    expect(sub?.endsOn).toBeNull();
  });

  it('the sandbox renewal at the boundaries in UTC+14 and UTC−11: charged for a period that begins the day before the end, nothing on the end day itself', async () => {
    for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
      const org = await insertTestOrg(t.db);
      await t.db
        .update(organizations)
        .set({
          attributes: sql`${organizations.attributes} || ${JSON.stringify({ timezone: zone })}::jsonb`,
        })
        .where(eq(organizations.id, org.id));
      const [prod] = await t.db
        .insert(products)
        .values({
          orgId: org.id,
          name: 'Monthly',
          type: 'recurring',
          schedule: 'month',
          priceMinor: 9_900,
        })
        .returning();
      const billing = addDays(dayKeyOf(Date.now(), zone), 1);
      // Midnight of the billing day in the zone, as a UTC instant (the zone's fixed offset).
      const offsetHours = zone === 'Pacific/Kiritimati' ? 14 : -11;
      const midnight = new Date(Date.parse(`${billing}T00:00:00.000Z`) - offsetHours * 3_600_000);
      const justBefore = new Date(midnight.getTime() - 60_000);
      const onEnd = await sandboxSubscription(
        { nextBillingDate: billing, endsOn: billing },
        org.id,
        prod!.id,
      );
      const dayAfter = await sandboxSubscription(
        { nextBillingDate: billing, endsOn: addDays(billing, 1) },
        org.id,
        prod!.id,
      );
      const target = (id: string) => ({ orgId: org.id, subscriptionId: id });
      expect(await renewSubscription(deps(), target(onEnd.id), justBefore)).toBe('not-due');
      const before = await charges();
      expect(await renewSubscription(deps(), target(onEnd.id), midnight)).toBe('ended');
      expect(await charges()).toBe(before);
      expect((await subOf(onEnd.id)).status).toBe('cancelled');
      expect(await renewSubscription(deps(), target(dayAfter.id), midnight)).toBe('paid');
      expect(await charges()).toBe(before + 1);
      // Its next period begins after the end: the next renewal ends it, nothing charged.
      const next = (await subOf(dayAfter.id)).nextBillingDate!;
      expect(next > addDays(billing, 1)).toBe(true);
      const later = new Date(Date.parse(`${next}T12:00:00.000Z`));
      expect(await renewSubscription(deps(), target(dayAfter.id), later)).toBe('ended');
      expect(await charges()).toBe(before + 1);
    }
  });

  it('the sweep running with a renewal on the same row: the period that begins before the end is charged once, the next is not charged', async () => {
    const billing = today();
    const end = addDays(billing, 10);
    const sub = await sandboxSubscription({ nextBillingDate: billing, endsOn: end });
    const target = { orgId: owner.org.id, subscriptionId: sub.id };
    const before = await charges();
    const [renewed] = await Promise.all([
      renewSubscription(deps(), target, noonOf(billing)),
      windDownAgreedEnds(deps(), noonOf(billing)),
      windDownAgreedEnds(deps(), noonOf(billing)),
    ]);
    expect(renewed).toBe('paid');
    expect(await charges()).toBe(before + 1);
    await windDownAgreedEnds(deps(), noonOf(billing));
    const after = await subOf(sub.id);
    expect(after.status).toBe('cancel-at-period-end');
    const next = after.nextBillingDate!;
    expect(await renewSubscription(deps(), target, noonOf(next))).toBe('ended');
    expect(await charges()).toBe(before + 1);
  });

  it('the customer cancelling again after the wind-down, and a sweep of another organisation’s rows, leave the end in place', async () => {
    const billing = addDays(today(), 3);
    const sub = await sandboxSubscription({ nextBillingDate: billing, endsOn: billing });
    const other = await newOrgWithOwner(t.app, t.db);
    const [otherProduct] = await t.db
      .insert(products)
      .values({
        orgId: other.org.id,
        name: 'Theirs',
        type: 'recurring',
        schedule: 'month',
        priceMinor: 5_000,
      })
      .returning();
    const theirs = await sandboxSubscription(
      { nextBillingDate: addDays(today(), 3), endsOn: addDays(today(), 60) },
      other.org.id,
      otherProduct!.id,
    );
    await windDownAgreedEnds(deps());
    expect((await subOf(sub.id)).status).toBe('cancel-at-period-end');
    expect((await subOf(theirs.id)).status).toBe('active');
    const { jar } = await logInAs(
      t.app,
      (await t.db.query.users.findFirst({ where: (u, { eq: e }) => e(u.id, sub.customerUserId) }))!
        .email!,
      { profileType: 'use-customer', profileOrgId: owner.org.id },
    );
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/shop/subscriptions/${sub.id}/cancel`,
      headers: jar.headers(),
      payload: {},
    });
    expect(cancelled.statusCode, cancelled.body).toBeLessThan(500);
    expect(await subOf(sub.id)).toMatchObject({ status: 'cancel-at-period-end', endsOn: billing });
    // Another organisation's staff cannot cancel or see it through their Shop.
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/api/shop/subscriptions/${sub.id}/cancel`,
      headers: other.jar.headers(),
      payload: {},
    });
    expect(foreign.statusCode).toBeGreaterThanOrEqual(400);
  });

  it('a past-due renewal of the last period that began before the end is charged at most once on its retry, then nothing more', async () => {
    const billing = today();
    const end = addDays(billing, 2);
    const sub = await sandboxSubscription(
      { nextBillingDate: billing, endsOn: end },
      owner.org.id,
      monthly.id,
      sandboxCardNumbers.declined,
    );
    const target = { orgId: owner.org.id, subscriptionId: sub.id };
    expect(await renewSubscription(deps(), target, noonOf(billing))).toBe('past-due');
    // The sweep does not mistake it for a later period: its billing date is before the end.
    await windDownAgreedEnds(deps(), noonOf(billing));
    expect((await subOf(sub.id)).status).toBe('past-due');
    await putCardOnFile(
      t.db,
      { orgId: owner.org.id, userId: sub.customerUserId },
      sub.id,
      sandboxCardNumbers.succeeds,
    );
    const before = await charges();
    // The retry falls after the end: it is the period that began before it (the meaning).
    expect(await renewSubscription(deps(), target, noonOf(addDays(billing, 3)))).toBe('paid');
    expect(await renewSubscription(deps(), target, noonOf(addDays(billing, 3)))).toBe('not-due');
    expect(await charges()).toBe(before + 1);
    const next = (await subOf(sub.id)).nextBillingDate!;
    expect(await renewSubscription(deps(), target, noonOf(next))).toBe('ended');
    expect(await charges()).toBe(before + 1);
  });

  it('an invitation’s end on or before its start is refused at import: nothing to pay for', async () => {
    const user = await customer();
    const start = addDays(today(), 10);
    const done = await importCalls(t.app).importFile(
      owner.jar,
      'assignments',
      [
        `${user.email},${monthly.name},${invite},${start},${start}`,
        `${user.email},${monthly.name},start-stripe-subscription,${start},${addDays(start, -1)}`,
        `${user.email},${monthly.name},${invite},,${today()}`,
      ].join('\n'),
      4096,
    );
    expect(done.status).not.toBe('done');
    expect(
      await t.db.select().from(productInvites).where(eq(productInvites.customerUserId, user.id)),
    ).toEqual([]);
    expect(await subsOfUser(user.id)).toEqual([]);
  });

  it('the end replicates to its owner’s devices only, and a device cannot push it away', async () => {
    const end = addDays(today(), 40);
    const sub = await sandboxSubscription({ nextBillingDate: addDays(today(), 9), endsOn: end });
    const ownerEmail = (await t.db.query.users.findFirst({
      where: (u, { eq: e }) => e(u.id, sub.customerUserId),
    }))!.email!;
    const neighbour = await customer();
    const other = await newOrgWithOwner(t.app, t.db);
    const jarOf = async (email: string) =>
      (await logInAs(t.app, email, { profileType: 'use-customer', profileOrgId: owner.org.id }))
        .jar;
    const pull = async (jar: CookieJar) => {
      await waitForVisibility(t.db);
      return t.app.inject({
        method: 'GET',
        url: '/api/sync/purchases/pull?batchSize=1000',
        headers: jar.headers(),
      });
    };
    const mine = await pull(await jarOf(ownerEmail));
    expect(mine.statusCode, mine.body).toBe(200);
    const doc = mine
      .json<{ documents: Array<{ id: string; endsOn: string | null }> }>()
      .documents.find((d) => d.id === sub.id);
    expect(doc?.endsOn).toBe(end);
    for (const jar of [await jarOf(neighbour.email!), other.jar]) {
      const theirs = await pull(jar);
      expect(theirs.body).not.toContain(sub.id);
    }
    const pushed = await t.app.inject({
      method: 'POST',
      url: '/api/sync/purchases/push',
      headers: (await jarOf(ownerEmail)).headers(),
      payload: [{ newDocumentState: { ...doc, endsOn: null }, assumedMasterState: doc }],
    });
    expect(pushed.statusCode).not.toBe(500);
    expect((await subOf(sub.id)).endsOn).toBe(end);
  });

  it('a Stripe event created before the wind-down and delivered after it does not revive the subscription to renewing', async () => {
    const billing = addDays(today(), 5);
    const sub = await sandboxSubscription({ nextBillingDate: billing, endsOn: billing });
    const stripeId = `sub_${randomUUID().replaceAll('-', '')}`;
    await t.db
      .update(subscriptions)
      .set({ processorSubscriptionId: stripeId, processorEventAt: new Date(Date.now() - 600_000) })
      .where(eq(subscriptions.id, sub.id));
    const asked: string[] = [];
    const stripeLike = {
      kind: 'stripe',
      cancelSubscriptionAtPeriodEnd: async (input: { processorSubscriptionId: string }) => {
        asked.push(input.processorSubscriptionId);
      },
    } as unknown as PaymentProcessor;
    const sweptAt = new Date();
    await windDownAgreedEnds({ db: t.db, processor: stripeLike }, sweptAt);
    expect(asked).toContain(stripeId);
    expect((await subOf(sub.id)).status).toBe('cancel-at-period-end');
    // Stripe's update from the renewal a minute before the sweep, delivered late.
    const stale = stripeEvent(
      'customer.subscription.updated',
      stripeSubscription({ id: stripeId, status: 'active', cancelAtPeriodEnd: false }),
      Math.floor(sweptAt.getTime() / 1000) - 60,
    );
    await receiveProcessorEvent(t.db, noJobs, stale);
    expect((await subOf(sub.id)).status).toBe('cancel-at-period-end');
  });

  it('one processor’s refusal does not keep the sweep from ever reaching the other subscriptions (limit)', async () => {
    // Two renewing rows past their end; Stripe refuses the first (an account disconnected).
    const failing = await sandboxSubscription({
      nextBillingDate: '2001-01-01',
      endsOn: '2000-12-01',
    });
    const fine = await sandboxSubscription({ nextBillingDate: '2001-01-02', endsOn: '2000-12-01' });
    await t.db
      .update(subscriptions)
      .set({ processorSubscriptionId: 'sub_refused' })
      .where(eq(subscriptions.id, failing.id));
    await t.db
      .update(subscriptions)
      .set({ processorSubscriptionId: 'sub_fine' })
      .where(eq(subscriptions.id, fine.id));
    const refusing = {
      kind: 'stripe',
      cancelSubscriptionAtPeriodEnd: async (input: { processorSubscriptionId: string }) => {
        if (input.processorSubscriptionId === 'sub_refused')
          throw new Error('account disconnected');
      },
    } as unknown as PaymentProcessor;
    try {
      for (let hour = 0; hour < 3; hour++)
        await windDownAgreedEnds({ db: t.db, processor: refusing }, new Date(), 1);
      expect((await subOf(fine.id)).status).toBe('cancel-at-period-end');
    } finally {
      await t.db
        .update(subscriptions)
        .set({ deleted: true })
        .where(eq(subscriptions.id, failing.id));
      await t.db.update(subscriptions).set({ deleted: true }).where(eq(subscriptions.id, fine.id));
    }
  });
});

/** Invitations paid with Stripe: the processor's subscription and the agreed end. */
describe.each(testDatabaseKinds)('agreed ends with Stripe under attack on %s', (kind) => {
  let db: Db;
  let wire: StripeWireServer;
  let stripe: PaymentProcessor;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, wire, stripe, close } = await startStripeBench(kind, { maxNetworkRetries: 0 }));
  });
  afterAll(() => close());

  it('an invitation’s Stripe subscription started after the sweep marked its row still stops at Stripe at the period’s end', async () => {
    const { org, customer: buyer, productId, methodId } = await stripeCustomerWithCard(db, stripe);
    const method = { id: methodId };
    const day = dayKeyOf(Date.now(), orgTimeZone(undefined));
    // An invitation's payment, as acceptPackageInvite totals it: its end 10 days away.
    const { invoiceId } = await totalCharge(db, {
      orgId: org.id,
      actorUserId: buyer.id,
      customerUserId: buyer.id,
      productId,
      couponId: null,
      paymentMethodId: method!.id,
      priceMinor: null,
      startDate: null,
      endsOn: addDays(day, 10),
      prorationMode: 'charge-prorated',
      issuePunchCard: true,
    });
    // Our charge is made; Stripe does not answer the subscription's start this time.
    wire.failNextOn('/v1/subscriptions', 'http-500');
    const paid = await runCharge(db, stripe, { orgId: org.id, invoiceId });
    expect(paid.valid).toBe(true);
    const id = (paid as { subscriptionId: string }).subscriptionId;
    const read = async () =>
      (await db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
    expect((await read()).processorSubscriptionId).toBeNull();
    // The hourly sweep: its next charge is after the end — our row is set to stop.
    await windDownAgreedEnds({ db, processor: stripe });
    expect((await read()).status).toBe('cancel-at-period-end');
    // The next Run charge of the invoice asks Stripe for the subscription again.
    await runCharge(db, stripe, { orgId: org.id, invoiceId });
    const sub = await read();
    if (sub.processorSubscriptionId)
      expect(wire.object(sub.processorSubscriptionId)).toMatchObject({
        cancel_at_period_end: true,
      });
    // And the sweep never looks at it again (it is not renewing by our row).
    await windDownAgreedEnds({ db, processor: stripe });
    if (sub.processorSubscriptionId)
      expect(wire.object(sub.processorSubscriptionId)).toMatchObject({
        cancel_at_period_end: true,
      });
  });
});
