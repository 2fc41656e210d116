import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  emailOutbox,
  invoices,
  paymentMethods,
  productInvites,
  products,
  rosterItems,
  sandboxCharges,
  subscriptions,
  users,
} from '@platform/schema/db';
import { importMessages } from '@platform/schema/imports/import-rules';
import { addPeriods } from '@platform/schema/payments/billing-calendar';
import { packageInviteMessages } from '@platform/schema/payments/package-invite.zod';
import {
  addDays,
  dayKeyOf,
  orgTimeZone,
  type DayKey,
} from '@platform/schema/time-tracking/org-calendar';
import {
  addMembership,
  insertTestUser,
  logInAs,
  newOrgWithOwner,
  signedInStaff,
  uniqueEmail,
} from '../testing/auth-fixtures.ts';
import type { CookieJar } from '../testing/cookie-jar.ts';
import { importCalls } from '../testing/import-fixtures.ts';
import { insertRosterItem, waitForVisibility } from '../testing/sync-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { SANDBOX_SUBSCRIPTION_PREFIX } from '../adapters/payments/sandbox.ts';
import { drainJobs } from '../testing/job-fixtures.ts';
import { addSandboxCard, noonOf, sandboxCardNumbers } from '../testing/renewal-fixtures.ts';
import { externalSubscription } from './assignments-import.service.ts';
import { startCardSubscriptions } from './card-subscription-start.service.ts';
import { renewSubscription } from './renewal.service.ts';
import { endAgreedSubscriptions, windDownAgreedEnds } from './subscription-ends.service.ts';

const external = 'start-customer-subscription-for-external-payment';
const invite = 'create-customer-subscription-invite';

/**
 * The product assignments import (issue 17, decision 0073) over the import API, as the screen
 * calls it: subscriptions paid outside the platform (with their dates, agreed price and end),
 * one-time products recorded, invitations emailed from the import's transaction — nothing
 * charged, the same file twice changes nothing, and a row refused anywhere leaves nothing.
 */
describe.each(testDatabaseKinds)('product assignments import on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let owner: { org: { id: string }; jar: CookieJar };
  const names = { monthly: '', pack: '', local: '' };
  const today = (): DayKey => dayKeyOf(Date.now(), orgTimeZone(undefined));

  const calls = () => importCalls(t.app);
  const importFile = (jar: CookieJar, kind: string, text: string) =>
    calls().importFile(jar, kind, text, 4096);

  const product = async (body: Record<string, unknown>) => {
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/catalogue/products',
      payload: body,
      headers: owner.jar.headers(),
    });
    expect(made.statusCode, made.body).toBe(201);
    return made.json<{ id: string; name: string }>();
  };

  /** New customers of the owner's organisation, by a customers import. */
  const customers = async (n: number, prefix: string) => {
    const emails = Array.from({ length: n }, (_, i) => uniqueEmail(`${prefix}${i}`));
    const done = await importFile(
      owner.jar,
      'customers',
      emails.map((e, i) => `Cust,Number${i},${e}`).join('\n'),
    );
    expect(done.status).toBe('done');
    return emails;
  };
  const userIdOf = async (email: string) =>
    (await t.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;
  const subscriptionsOf = async (email: string) =>
    t.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.customerUserId, await userIdOf(email)));
  const charges = async () => (await t.db.select({ n: count() }).from(sandboxCharges))[0]!.n;

  beforeAll(async () => {
    t = await createTestApp(kind);
    owner = await newOrgWithOwner(t.app, t.db);
    const suffix = crypto.randomUUID().slice(0, 6);
    names.monthly = (
      await product({
        name: `Unlimited ${suffix}`,
        type: 'recurring',
        schedule: 'month',
        priceMinor: 9_900,
      })
    ).name;
    names.pack = (
      await product({
        name: `Ten classes ${suffix}`,
        type: 'one-time',
        schedule: 'one-time',
        priceMinor: 12_000,
      })
    ).name;
  }, 60_000);
  afterAll(() => t.close());

  it('subscriptions paid outside the platform: running, starting later, and already ended, at the agreed price; the same file again changes nothing; nothing is charged', async () => {
    const [running, later, ended, pack] = await customers(4, 'ext');
    const day = today();
    const started = addDays(day, -40);
    const file = [
      'customerEmail,productName,action,startDate,endDate,discountType,discountAmount',
      `${running},${names.monthly},${external},${started},,percentage,10`,
      `${later!.toUpperCase()},${names.monthly},${external},${addDays(day, 10)},${addDays(day, 200)},fixed_amount,9.90`,
      `${ended},${names.monthly},${external},${addDays(day, -400)},${addDays(day, -30)}`,
      `${pack},${names.pack},${external},,,fixed_amount,20`,
    ].join('\r\n');
    const chargesBefore = await charges();
    const done = await importFile(owner.jar, 'assignments', file);
    expect(done).toMatchObject({
      status: 'done',
      rowsTotal: 4,
      result: { rows: 4, subscribed: 3, recorded: 1, invited: 0, unchanged: 0 },
    });

    const [a] = await subscriptionsOf(running!);
    expect(a).toMatchObject({
      orgId: owner.org.id,
      productName: names.monthly,
      priceMinor: 8_910,
      status: 'active',
      startedOn: started,
      endsOn: null,
      externalPayments: true,
      cancelledAt: null,
      processorSubscriptionId: null,
      paymentMethodId: null,
    });
    // The first of its monthly dates after today, counted from its start.
    expect(a!.nextBillingDate! > day).toBe(true);
    expect(a!.nextBillingDate).toBe(addPeriods(started, 'month', 2));
    const [b] = await subscriptionsOf(later!);
    expect(b).toMatchObject({
      priceMinor: 8_910,
      status: 'scheduled',
      startedOn: addDays(day, 10),
      nextBillingDate: addDays(day, 10),
      endsOn: addDays(day, 200),
    });
    const [c] = await subscriptionsOf(ended!);
    expect(c).toMatchObject({
      status: 'cancelled',
      nextBillingDate: null,
      endsOn: addDays(day, -30),
    });
    expect(c!.cancelledAt?.toISOString().slice(0, 10)).toBe(addDays(day, -30));
    const [recorded] = await t.db
      .select()
      .from(productInvites)
      .where(eq(productInvites.customerUserId, await userIdOf(pack!)));
    expect(recorded).toMatchObject({
      action: external,
      status: 'accepted',
      priceMinor: 10_000,
      subscriptionId: null,
    });
    expect(await subscriptionsOf(pack!)).toEqual([]);

    // Nothing charged, nothing billed.
    expect(await charges()).toBe(chargesBefore);
    const owners = await Promise.all([running, later, ended, pack].map((e) => userIdOf(e!)));
    expect(
      await t.db.select().from(invoices).where(inArray(invoices.customerUserId, owners)),
    ).toEqual([]);

    const again = await importFile(owner.jar, 'assignments', file);
    expect(again.result).toEqual({
      rows: 4,
      subscribed: 0,
      cardStarted: 0,
      recorded: 0,
      invited: 0,
      unchanged: 4,
    });
    for (const email of [running, later, ended])
      expect(await subscriptionsOf(email!)).toHaveLength(1);
  });

  it('invitations: pending, emailed with their link from the import; not sent again; a customer who pays outside and a product the processor does not know are refused rows, and nothing is written', async () => {
    const [ann, bo, outside] = await customers(3, 'inv');
    await t.db
      .update(rosterItems)
      .set({ externalPayments: true })
      .where(
        and(eq(rosterItems.orgId, owner.org.id), eq(rosterItems.userId, await userIdOf(outside!))),
      );
    const local = await product({
      name: `Local only ${crypto.randomUUID().slice(0, 6)}`,
      type: 'one-time',
      schedule: 'one-time',
      priceMinor: 500,
    });
    await t.db.update(products).set({ processorProductId: null }).where(eq(products.id, local.id));

    // A one-time product starts on payment: its start date is a blank cell (the row still
    // has the file's columns).
    const good = [
      `${ann},${names.monthly},${invite},${addDays(today(), 7)}`,
      `${bo},${names.pack},${invite},,,,`,
    ];
    const refused = await importFile(
      owner.jar,
      'assignments',
      [...good, `${outside},${names.monthly},${invite},`, `${ann},${local.name},${invite},`].join(
        '\n',
      ),
    );
    expect(refused.status).toBe('refused');
    expect(refused.rowErrors).toEqual([
      {
        row: 3,
        message: `Customer ${outside} pays outside the platform: use start-customer-subscription-for-external-payment`,
        cells: [outside, names.monthly, invite],
      },
      { row: 4, message: packageInviteMessages.stripeOnly, cells: [ann, local.name, invite] },
    ]);
    const annId = await userIdOf(ann!);
    const boId = await userIdOf(bo!);
    expect(
      await t.db
        .select()
        .from(productInvites)
        .where(inArray(productInvites.customerUserId, [annId, boId])),
    ).toEqual([]);
    expect(
      await t.db
        .select()
        .from(emailOutbox)
        .where(inArray(emailOutbox.toAddress, [ann!, bo!])),
    ).toEqual([]);

    const done = await importFile(owner.jar, 'assignments', good.join('\n'));
    expect(done.result).toEqual({
      rows: 2,
      subscribed: 0,
      cardStarted: 0,
      recorded: 0,
      invited: 2,
      unchanged: 0,
    });
    const made = await t.db
      .select()
      .from(productInvites)
      .where(inArray(productInvites.customerUserId, [annId, boId]));
    expect(
      made.map((i) => [i.customerUserId, i.status, i.action, i.startDate, i.priceMinor]),
    ).toEqual(
      expect.arrayContaining([
        [annId, 'pending', invite, addDays(today(), 7), null],
        [boId, 'pending', invite, null, null],
      ]),
    );
    const mails = await t.db
      .select()
      .from(emailOutbox)
      .where(inArray(emailOutbox.toAddress, [ann!, bo!]));
    expect(mails).toHaveLength(2);
    const annInvite = made.find((i) => i.customerUserId === annId)!;
    expect(mails.find((m) => m.toAddress === ann)!.textBody).toContain(
      `/dashboard-customer/${owner.org.id}/invites/${annInvite.id}`,
    );

    const again = await importFile(owner.jar, 'assignments', good.join('\n'));
    expect(again.result).toEqual({
      rows: 2,
      subscribed: 0,
      cardStarted: 0,
      recorded: 0,
      invited: 0,
      unchanged: 2,
    });
    expect(
      await t.db
        .select()
        .from(emailOutbox)
        .where(inArray(emailOutbox.toAddress, [ann!, bo!])),
    ).toHaveLength(2);
  });

  it('an invitation with an end date: its subscription carries the end, is set to stop at the period before it, and charges nothing on or after it; once the end has come it cannot be paid', async () => {
    const people = [];
    for (const first of ['Ena', 'Late']) {
      const user = await insertTestUser(t.db, { firstName: first, lastName: 'Ending' });
      await addMembership(t.db, user.id, owner.org.id, 'customer');
      await insertRosterItem(
        t.db,
        owner.org.id,
        { id: user.id, email: user.email },
        { firstName: first, lastName: 'Ending', updatedAt: new Date() },
      );
      people.push(user);
    }
    const [ena, late] = people as [(typeof people)[number], (typeof people)[number]];
    const end = addDays(today(), 45);
    const done = await importFile(
      owner.jar,
      'assignments',
      [ena, late].map((u) => `${u.email},${names.monthly},${invite},,${end}`).join('\n'),
    );
    expect(done.result).toMatchObject({ invited: 2 });
    const inviteOf = async (userId: string) =>
      (
        await t.db.select().from(productInvites).where(eq(productInvites.customerUserId, userId))
      )[0]!;
    expect(await inviteOf(ena.id)).toMatchObject({ endDate: end, status: 'pending' });
    const [mail] = await t.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, ena.email!));
    expect(mail!.textBody).toContain(`It ends on ${end}`);

    const pay = async (user: typeof ena) => {
      const { jar } = await logInAs(t.app, user.email!, {
        profileType: 'use-customer',
        profileOrgId: owner.org.id,
      });
      return t.app.inject({
        method: 'POST',
        url: '/api/package-invite',
        headers: jar.headers(),
        payload: {
          action: 'accept-package-invite',
          inviteId: (await inviteOf(user.id)).id,
          card: { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' },
        },
      });
    };
    const { jar: enaJar } = await logInAs(t.app, ena.email!, {
      profileType: 'use-customer',
      profileOrgId: owner.org.id,
    });
    const offered = await t.app.inject({
      method: 'POST',
      url: '/api/package-invite',
      headers: enaJar.headers(),
      payload: { action: 'get-package-invite', inviteId: (await inviteOf(ena.id)).id },
    });
    expect(offered.json()).toMatchObject({ endDate: end, status: 'pending' });
    const paid = await pay(ena);
    expect(paid.json<{ valid: boolean }>().valid, paid.body).toBe(true);
    const [sub] = await subscriptionsOf(ena.email!);
    expect(sub).toMatchObject({ status: 'active', endsOn: end, externalPayments: false });
    const second = sub!.nextBillingDate!;
    const third = addPeriods(second, 'month', 1);
    const deps = { db: t.db, processor: t.app.paymentProcessor, jobs: t.app.jobs };
    const target = { orgId: owner.org.id, subscriptionId: sub!.id };
    // The second period begins before the end: charged. The third would not: stopped before it.
    expect(await windDownAgreedEnds(deps)).toBe(0);
    expect(await renewSubscription(deps, target, noonOf(second))).toBe('paid');
    expect(await windDownAgreedEnds(deps)).toBe(1);
    expect((await subscriptionsOf(ena.email!))[0]!.status).toBe('cancel-at-period-end');
    const before = await charges();
    expect(await renewSubscription(deps, target, noonOf(third))).toBe('ended');
    expect(await charges()).toBe(before);

    // The end has come before the invitation was paid: nothing to start.
    await t.db
      .update(productInvites)
      .set({ endDate: today() })
      .where(eq(productInvites.customerUserId, late.id));
    const refused = await pay(late);
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain(packageInviteMessages.endPassed);
    expect(await subscriptionsOf(late.email!)).toEqual([]);
  });

  it('an invitation at a discount is paid at the agreed price, once, and renews at it; the price cannot be raised or given by a request', async () => {
    const user = await insertTestUser(t.db, { firstName: 'Dee', lastName: 'Count' });
    await addMembership(t.db, user.id, owner.org.id, 'customer');
    await insertRosterItem(
      t.db,
      owner.org.id,
      { id: user.id, email: user.email },
      {
        firstName: 'Dee',
        lastName: 'Count',
        updatedAt: new Date(),
      },
    );
    const done = await importFile(
      owner.jar,
      'assignments',
      `${user.email},${names.monthly},${invite},,,percentage,25`,
    );
    expect(done.result).toMatchObject({ invited: 1 });
    const [sent] = await t.db
      .select()
      .from(productInvites)
      .where(eq(productInvites.customerUserId, user.id));
    expect(sent).toMatchObject({ status: 'pending', priceMinor: 7_425 });
    const [mail] = await t.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, user.email!));
    expect(mail!.textBody).toContain('$74.25');

    const { jar } = await logInAs(t.app, user.email!, {
      profileType: 'use-customer',
      profileOrgId: owner.org.id,
    });
    const post = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/package-invite', payload, headers: jar.headers() });
    const read = await post({ action: 'get-package-invite', inviteId: sent!.id });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({ totals: { total: 7_425 } });
    const visa = { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' };
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        post({ action: 'accept-package-invite', inviteId: sent!.id, card: visa }),
      ),
    );
    expect(answers.some((a) => a.json<{ valid: boolean }>().valid)).toBe(true);
    const charged = await t.db
      .select({ amount: sandboxCharges.amountMinor })
      .from(sandboxCharges)
      .where(and(eq(sandboxCharges.orgId, owner.org.id), eq(sandboxCharges.outcome, 'succeeded')));
    expect(charged.filter((c) => c.amount === 7_425)).toHaveLength(1);
    const [started] = await t.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.customerUserId, user.id));
    expect(started).toMatchObject({ status: 'active', priceMinor: 7_425, externalPayments: false });
    const [invoice] = await t.db
      .select()
      .from(invoices)
      .where(eq(invoices.customerUserId, user.id));
    expect(invoice).toMatchObject({ priceAgreed: true, priceMinor: 7_425, totalMinor: 7_425 });

    // Staff's own checkout takes no price for this product, whatever the body says.
    const [item] = await t.db
      .select({ id: rosterItems.id })
      .from(rosterItems)
      .where(and(eq(rosterItems.orgId, owner.org.id), eq(rosterItems.userId, user.id)));
    const cheap = await t.app.inject({
      method: 'POST',
      url: '/api/charges/total',
      headers: owner.jar.headers(),
      payload: {
        rosterId: item!.id,
        productId: started!.productId,
        paymentMethodId: null,
        priceMinor: 1,
        agreedPrice: true,
        priceAgreed: true,
      },
    });
    expect(cheap.statusCode).toBe(422);
    expect(
      await t.db
        .select()
        .from(invoices)
        .where(and(eq(invoices.customerUserId, user.id), eq(invoices.priceMinor, 1))),
    ).toEqual([]);
  });

  it('a row refused past the first batch of 5,000 leaves nothing of the 5,000 before it', async () => {
    const emails = await customers(5_001, 'big');
    const outside = emails[5_000]!;
    await t.db
      .update(rosterItems)
      .set({ externalPayments: true })
      .where(
        and(eq(rosterItems.orgId, owner.org.id), eq(rosterItems.userId, await userIdOf(outside))),
      );
    const rows = emails.map((e, i) =>
      i < 5_000
        ? `${e},${names.monthly},${external},${addDays(today(), -i % 300)}`
        : `${e},${names.monthly},${invite},`,
    );
    const before = (
      await t.db
        .select({ n: count() })
        .from(subscriptions)
        .where(eq(subscriptions.orgId, owner.org.id))
    )[0]!.n;
    const refused = await importFile(owner.jar, 'assignments', rows.join('\n'));
    expect(refused).toMatchObject({ status: 'refused' });
    expect(refused.rowErrors.map((e) => e.row)).toEqual([5_001]);
    expect(
      (
        await t.db
          .select({ n: count() })
          .from(subscriptions)
          .where(eq(subscriptions.orgId, owner.org.id))
      )[0]!.n,
    ).toBe(before);

    // The same 5,000 without the refused row: all written, in one import.
    const done = await importFile(owner.jar, 'assignments', rows.slice(0, 5_000).join('\n'));
    expect(done.result).toMatchObject({ subscribed: 5_000, unchanged: 0 });
  }, 180_000);

  it('card subscriptions start on the card on file: scheduled and nothing charged by the import, the processor asked once after it, charged once on the start date at the agreed price; the same file again changes nothing', async () => {
    const [carded, twice] = await customers(2, 'card');
    const person = async (email: string) => ({
      orgId: owner.org.id,
      userId: await userIdOf(email),
    });
    const card = await addSandboxCard(t.db, await person(carded!), sandboxCardNumbers.succeeds);
    await addSandboxCard(t.db, await person(twice!), sandboxCardNumbers.succeeds);
    const start = addDays(today(), 10);
    const file = [
      `${carded},${names.monthly},start-stripe-subscription,${start},,percentage,10`,
      `${twice},${names.monthly},start-stripe-subscription,${start}`,
    ].join('\n');
    const chargesBefore = await charges();
    const done = await importFile(owner.jar, 'assignments', file);
    expect(done.result).toMatchObject({ subscribed: 0, cardStarted: 2, unchanged: 0 });
    expect(await charges()).toBe(chargesBefore);
    const [sub] = await subscriptionsOf(carded!);
    expect(sub).toMatchObject({
      status: 'scheduled',
      startedOn: start,
      nextBillingDate: start,
      priceMinor: 8_910,
      externalPayments: false,
      paymentMethodId: card.id,
      card: { brand: card.brand, last4: card.last4 },
      firstInvoiceId: null,
    });

    // The start job, queued by the import: the processor's subscription, once.
    await drainJobs(t.app);
    const started = (await subscriptionsOf(carded!))[0]!.processorSubscriptionId;
    expect(started).toMatch(new RegExp(`^${SANDBOX_SUBSCRIPTION_PREFIX}`));
    const deps = { db: t.db, processor: t.app.paymentProcessor, jobs: t.app.jobs };
    expect(
      await startCardSubscriptions(deps, { orgId: owner.org.id, subscriptionIds: [sub!.id] }),
    ).toEqual(['done-before']);
    expect(await charges()).toBe(chargesBefore);

    // Due on its start date in the organisation's calendar, not before; charged once.
    const target = { orgId: owner.org.id, subscriptionId: sub!.id };
    expect(await renewSubscription(deps, target, noonOf(addDays(start, -1)))).toBe('not-due');
    const outcomes = await Promise.all(
      [1, 2, 3].map(() => renewSubscription(deps, target, noonOf(start))),
    );
    expect(outcomes.filter((o) => o === 'paid')).toHaveLength(1);
    expect(await renewSubscription(deps, target, noonOf(start))).toBe('not-due');
    expect(await charges()).toBe(chargesBefore + 1);
    const paid = await t.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.subscriptionId, sub!.id), eq(invoices.status, 'paid')));
    expect(paid.map((i) => [i.totalMinor, i.periodStart, i.paymentMethodId])).toEqual([
      [8_910, start, card.id],
    ]);
    expect((await subscriptionsOf(carded!))[0]).toMatchObject({
      status: 'active',
      nextBillingDate: addPeriods(start, 'month', 1),
    });

    const again = await importFile(owner.jar, 'assignments', file);
    expect(again.result).toMatchObject({ cardStarted: 0, unchanged: 2 });
    expect(await subscriptionsOf(carded!)).toHaveLength(1);
  });

  it('a card subscription with an end date is charged for the periods that begin before it, then ends at its period’s end: set so by the sweep, and the renewal charges nothing on or after the end without it', async () => {
    const [swept, unswept] = await customers(2, 'ending');
    const start = addDays(today(), 5);
    const end = addDays(addPeriods(start, 'month', 1), 10);
    for (const email of [swept!, unswept!])
      await addSandboxCard(
        t.db,
        { orgId: owner.org.id, userId: await userIdOf(email) },
        sandboxCardNumbers.succeeds,
      );
    const done = await importFile(
      owner.jar,
      'assignments',
      [swept, unswept]
        .map((email) => `${email},${names.monthly},start-stripe-subscription,${start},${end}`)
        .join('\n'),
    );
    expect(done.result).toMatchObject({ cardStarted: 2 });
    await drainJobs(t.app);
    const deps = { db: t.db, processor: t.app.paymentProcessor, jobs: t.app.jobs };
    const second = addPeriods(start, 'month', 1);
    const third = addPeriods(start, 'month', 2);
    const targets = [];
    for (const email of [swept!, unswept!]) {
      const [sub] = await subscriptionsOf(email);
      expect(sub).toMatchObject({ endsOn: end, status: 'scheduled' });
      targets.push({ orgId: owner.org.id, subscriptionId: sub!.id });
    }
    for (const target of targets)
      expect(await renewSubscription(deps, target, noonOf(start))).toBe('paid');
    // The next charge (the second) is before the end: nothing to stop yet.
    expect(await windDownAgreedEnds(deps, noonOf(start))).toBe(0);
    for (const target of targets)
      expect(await renewSubscription(deps, target, noonOf(second))).toBe('paid');
    for (const email of [swept!, unswept!])
      expect((await subscriptionsOf(email))[0]!.nextBillingDate).toBe(third);
    // The sweep: the next charge would be after the end, so it ends when the period paid does.
    const [sweptSub] = await subscriptionsOf(swept!);
    const [unsweptSub] = await subscriptionsOf(unswept!);
    await t.db
      .update(subscriptions)
      .set({ endsOn: null })
      .where(eq(subscriptions.id, unsweptSub!.id));
    expect(await windDownAgreedEnds(deps, noonOf(second))).toBe(1);
    expect(await windDownAgreedEnds(deps, noonOf(second))).toBe(0);
    await t.db
      .update(subscriptions)
      .set({ endsOn: end })
      .where(eq(subscriptions.id, unsweptSub!.id));
    expect((await subscriptionsOf(swept!))[0]).toMatchObject({
      status: 'cancel-at-period-end',
      nextBillingDate: third,
    });
    const chargesBefore = await charges();
    for (const sub of [sweptSub!, unsweptSub!]) {
      const target = { orgId: owner.org.id, subscriptionId: sub.id };
      expect(await renewSubscription(deps, target, noonOf(third))).toBe('ended');
      expect(await renewSubscription(deps, target, noonOf(addDays(third, 1)))).toBe('not-due');
    }
    expect(await charges()).toBe(chargesBefore);
    for (const email of [swept!, unswept!])
      expect((await subscriptionsOf(email))[0]).toMatchObject({ status: 'cancelled' });
    const paid = await t.db
      .select({ n: count() })
      .from(invoices)
      .where(
        and(
          inArray(invoices.subscriptionId, [sweptSub!.id, unsweptSub!.id]),
          eq(invoices.status, 'paid'),
        ),
      );
    expect(paid[0]!.n).toBe(4);
  });

  it('a card start needs a card on file in this organisation, valid when it first charges: none, another organisation’s, or an expired one is a refused row, and nothing is written', async () => {
    const [none, elsewhere, expired, fine] = await customers(4, 'nocard');
    const other = await newOrgWithOwner(t.app, t.db);
    await addSandboxCard(
      t.db,
      { orgId: other.org.id, userId: await userIdOf(elsewhere!) },
      sandboxCardNumbers.succeeds,
    );
    const start = addDays(today(), 20);
    const expiredCard = await addSandboxCard(
      t.db,
      { orgId: owner.org.id, userId: await userIdOf(expired!) },
      sandboxCardNumbers.succeeds,
    );
    // It expires the month before the first charge.
    const [y, m] = addDays(start, -31).split('-').map(Number) as [number, number];
    await t.db
      .update(paymentMethods)
      .set({ expYear: y, expMonth: m })
      .where(eq(paymentMethods.id, expiredCard.id));
    await addSandboxCard(
      t.db,
      { orgId: owner.org.id, userId: await userIdOf(fine!) },
      sandboxCardNumbers.succeeds,
    );
    const refused = await importFile(
      owner.jar,
      'assignments',
      [none, elsewhere, expired, fine]
        .map((email) => `${email},${names.monthly},start-stripe-subscription,${start}`)
        .join('\n'),
    );
    expect(refused.status).toBe('refused');
    expect(refused.rowErrors.map((e) => [e.row, e.message])).toEqual([
      [1, `Customer ${none} has no card on file`],
      [2, `Customer ${elsewhere} has no card on file`],
      [3, `Customer ${expired} has no card on file`],
    ]);
    expect(await subscriptionsOf(fine!)).toEqual([]);
    await drainJobs(t.app);
    expect(await subscriptionsOf(fine!)).toEqual([]);
  });

  it('the rules the preview runs hold on the server: an invitation must leave something to pay, another organisation’s product and customer are unknown, staff without the till may not', async () => {
    const [ann] = await customers(1, 'rule');
    const other = await newOrgWithOwner(t.app, t.db);
    const theirs = await t.app.inject({
      method: 'POST',
      url: '/api/catalogue/products',
      payload: {
        name: `Theirs ${crypto.randomUUID().slice(0, 6)}`,
        type: 'recurring',
        schedule: 'month',
        priceMinor: 100,
      },
      headers: other.jar.headers(),
    });
    const theirName = theirs.json<{ name: string }>().name;
    const stranger = uniqueEmail('stranger');
    const refused = await importFile(
      owner.jar,
      'assignments',
      [
        `${ann},${names.monthly},create-customer-subscription-invite,,,percentage,100`,
        `${ann},${theirName},${external},`,
        `${stranger},${names.monthly},${external},`,
      ].join('\n'),
    );
    expect(refused.rowErrors.map((e) => e.message)).toEqual([
      importMessages.inviteFree,
      `Product ${theirName} not found`,
      `Email ${stranger} is not in the valid emails list`,
    ]);
    const clerk = await signedInStaff(t.app, t.db, owner.org.id, ['view-customers']);
    expect(
      (
        await calls().create(clerk.jar, {
          kind: 'assignments',
          fileName: 'a.csv',
          totalBytes: 10,
        })
      ).statusCode,
    ).toBe(403);
  });

  it('one paid outside and cancelled by its customer ends when its period does (nothing renews it to end it)', async () => {
    const [leaving] = await customers(1, 'leave');
    const day = today();
    expect(
      (
        await importFile(
          owner.jar,
          'assignments',
          `${leaving},${names.monthly},${external},${addDays(day, -20)}`,
        )
      ).status,
    ).toBe('done');
    const [sub] = await subscriptionsOf(leaving!);
    // As the Shop's self-service cancel leaves it (shop.service.ts cancelAtPeriodEnd).
    await t.db
      .update(subscriptions)
      .set({ status: 'cancel-at-period-end' })
      .where(eq(subscriptions.id, sub!.id));
    await endAgreedSubscriptions(t.db, new Date());
    expect((await subscriptionsOf(leaving!))[0]!.status).toBe('cancel-at-period-end');
    await endAgreedSubscriptions(t.db, new Date(Date.now() + 40 * 86_400_000));
    expect((await subscriptionsOf(leaving!))[0]).toMatchObject({
      status: 'cancelled',
      nextBillingDate: null,
    });
  });

  it('a subscription paid outside the platform ends on its agreed day, told to its owner’s devices, once', async () => {
    const [soon] = await customers(1, 'end');
    const day = today();
    const done = await importFile(
      owner.jar,
      'assignments',
      `${soon},${names.monthly},${external},${addDays(day, -20)},${addDays(day, 1)}`,
    );
    expect(done.status).toBe('done');
    const [before] = await subscriptionsOf(soon!);
    expect(before).toMatchObject({
      status: 'active',
      endsOn: addDays(day, 1),
      nextBillingDate: null,
    });
    // On devices (staff who sell replicate purchases): paid outside, with its end.
    await waitForVisibility(t.db);
    let found: Record<string, unknown> | undefined;
    let query = '?batchSize=1000';
    for (let page = 0; page < 20 && !found; page++) {
      const pulled = (
        await t.app.inject({
          method: 'GET',
          url: `/api/sync/purchases/pull${query}`,
          headers: owner.jar.headers(),
        })
      ).json<{
        documents: Array<Record<string, unknown>>;
        checkpoint: { id: string; lsn: number } | null;
      }>();
      found = pulled.documents.find((d) => d.id === before!.id);
      if (!pulled.checkpoint || pulled.documents.length === 0) break;
      query = `?id=${pulled.checkpoint.id}&lsn=${pulled.checkpoint.lsn}&batchSize=1000`;
    }
    expect(found).toMatchObject({
      externalPayments: true,
      endsOn: addDays(day, 1),
      status: 'active',
    });
    // Not yet: today is before its end.
    await endAgreedSubscriptions(t.db, new Date());
    expect((await subscriptionsOf(soon!))[0]!.status).toBe('active');
    const later = new Date(Date.now() + 2 * 86_400_000);
    expect(await endAgreedSubscriptions(t.db, later)).toBeGreaterThanOrEqual(1);
    const [after] = await subscriptionsOf(soon!);
    expect(after).toMatchObject({ status: 'cancelled', nextBillingDate: null });
    expect(after!.txid).not.toBe(before!.txid);
    const cancelledAt = after!.cancelledAt;
    await endAgreedSubscriptions(t.db, later);
    expect((await subscriptionsOf(soon!))[0]!.cancelledAt).toEqual(cancelledAt);
  });
});

describe('an external subscription’s dates', () => {
  const row = (startDate: DayKey | null, endDate: DayKey | null) => ({
    productId: 'p',
    priceMinor: 100,
    startDate,
    endDate,
  });
  it('bills from its start, after today, and not on or after its end', () => {
    const sub = (r: ReturnType<typeof row>) =>
      externalSubscription(r, { schedule: 'month' }, 'u', '2027-03-15');
    expect(sub(row('2027-01-31', null))).toMatchObject({
      status: 'active',
      nextBillingDate: '2027-03-31',
    });
    expect(sub(row(null, null))).toMatchObject({
      status: 'active',
      startedOn: '2027-03-15',
      nextBillingDate: '2027-04-15',
    });
    expect(sub(row('2027-04-02', '2027-04-03'))).toMatchObject({
      status: 'scheduled',
      nextBillingDate: '2027-04-02',
    });
    expect(sub(row('2027-01-31', '2027-03-31'))).toMatchObject({
      status: 'active',
      nextBillingDate: null,
    });
    expect(sub(row('2027-01-01', '2027-03-15'))).toMatchObject({
      status: 'cancelled',
      nextBillingDate: null,
      cancelledAt: '2027-03-15T12:00:00Z',
    });
  });
});
