import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { subscriptions } from '@platform/schema/db';
import { addMonths } from '@platform/schema/payments/billing-calendar';
import { dayKeyOf } from '@platform/schema/time-tracking/org-calendar';
import { sandboxProcessor } from '../adapters/payments/sandbox.ts';
import { sandboxMessages } from '../adapters/payments/sandbox-cards.ts';
import { drainJobs, settledEmailsTo } from '../testing/job-fixtures.ts';
import {
  noonOf,
  queuedJobs,
  renewalCharges,
  renewalInvoices,
  sandboxCardNumbers,
  subscribeWithSandbox,
  subscriptionRow,
} from '../testing/renewal-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { receiptTexts } from './receipt.service.ts';
import { renewalNotice } from './renewal-notice.service.ts';
import { RENEWAL_RETRY_DAYS, renewSubscription } from './renewal.service.ts';
import { queueDueRenewals } from './renewals-due.service.ts';
import { cancelAtPeriodEnd } from './shop.service.ts';

const DAY_MS = 86_400_000;
type Subscribed = Awaited<ReturnType<typeof subscribeWithSandbox>>;

// Issue 15, decision 0060: a declined renewal, its retries and its end; a cancellation at the
// period's end; each organisation's renewals on its own day and only its own.
describe.each(testDatabaseKinds)('sandbox renewals that fail or end on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp(kind, { jobs: { work: false } });
  });
  afterAll(() => t.close());

  const renew = (s: Subscribed, now: Date, orgId = s.org.id) =>
    renewSubscription(
      { db: t.db, processor: sandboxProcessor(t.db), jobs: t.app.jobs },
      { orgId, subscriptionId: s.subscriptionId },
      now,
    );
  const notices = (s: Subscribed) =>
    queuedJobs(t.database, 'renewal-failed-notice', 'subscriptionId', s.subscriptionId);

  it('marks a declined renewal past due, tells the customer, retries a day later, and is active again with a card that works', async () => {
    const s = await subscribeWithSandbox(t.db, { boughtOn: '2026-11-24' });
    await s.replaceCard(sandboxCardNumbers.declined);
    const at = noonOf('2026-12-24');
    expect(await renew(s, at)).toBe('past-due');

    const [open] = await renewalInvoices(t.db, s.subscriptionId);
    expect(open).toMatchObject({
      status: 'open',
      attempt: 2,
      failureMessage: sandboxMessages.declined,
    });
    expect(await subscriptionRow(t.db, s.subscriptionId)).toMatchObject({
      status: 'past-due',
      nextBillingDate: '2026-12-24',
      renewalRetryAt: new Date(at.getTime() + DAY_MS),
    });
    expect(await notices(s)).toEqual([
      {
        orgId: s.org.id,
        subscriptionId: s.subscriptionId,
        processorInvoiceId: open!.id,
        ended: false,
      },
    ]);
    // Not before the retry is due.
    expect(await renew(s, new Date(at.getTime() + 3_600_000))).toBe('not-due');

    // The customer adds a card that works; the retry charges it.
    const fixed = await s.replaceCard(sandboxCardNumbers.succeeds);
    expect(await renew(s, new Date(at.getTime() + DAY_MS))).toBe('paid');
    expect(await subscriptionRow(t.db, s.subscriptionId)).toMatchObject({
      status: 'active',
      nextBillingDate: '2027-01-24',
      renewalRetryAt: null,
    });
    expect(await renewalInvoices(t.db, s.subscriptionId)).toEqual([
      expect.objectContaining({ status: 'paid', paymentMethodId: fixed.id, failureMessage: null }),
    ]);
    expect(await renewalCharges(t.db, s.subscriptionId)).toEqual([
      ['2026-12-24:1', 9_900, 'declined'],
      ['2026-12-24:2', 9_900, 'succeeded'],
    ]);
    expect(await queuedJobs(t.database, 'payment-receipt', 'invoiceId', open!.id)).toHaveLength(1);
    expect(await notices(s)).toHaveLength(1);
  });

  it('retries 1, 3 and 5 days after the first decline, and ends the subscription when the last retry fails', async () => {
    expect(RENEWAL_RETRY_DAYS).toEqual([1, 3, 5]);
    const s = await subscribeWithSandbox(t.db, { boughtOn: '2026-11-24' });
    await s.replaceCard(sandboxCardNumbers.declined);
    const at = noonOf('2026-12-24');
    const after = (days: number) => new Date(at.getTime() + days * DAY_MS);
    expect(await renew(s, at)).toBe('past-due');
    expect(await renew(s, after(1))).toBe('past-due');
    expect(await renew(s, after(2))).toBe('not-due');
    expect(await renew(s, after(3))).toBe('past-due');
    expect((await subscriptionRow(t.db, s.subscriptionId)).renewalRetryAt).toEqual(after(5));
    expect(await renew(s, after(5))).toBe('ended');

    expect(await subscriptionRow(t.db, s.subscriptionId)).toMatchObject({
      status: 'cancelled',
      cancelledAt: after(5),
      renewalRetryAt: null,
      nextBillingDate: '2026-12-24',
    });
    expect(await renewalInvoices(t.db, s.subscriptionId)).toEqual([
      expect.objectContaining({ status: 'void', attempt: 5 }),
    ]);
    expect(await renewalCharges(t.db, s.subscriptionId)).toEqual(
      [1, 2, 3, 4].map((attempt) => [`2026-12-24:${attempt}`, 9_900, 'declined']),
    );
    expect((await notices(s)).map((notice) => notice.ended)).toEqual([false, false, false, true]);
    // Ended: nothing more is tried, a month later either.
    expect(await renew(s, after(31))).toBe('not-due');
    expect(await renewalCharges(t.db, s.subscriptionId)).toHaveLength(4);
  });

  it('ends a subscription cancelled at period end on its billing date, charging nothing', async () => {
    const s = await subscribeWithSandbox(t.db, { boughtOn: '2026-11-24' });
    const deps = { db: t.db, processor: sandboxProcessor(t.db), mailer: t.app.mailer };
    const buyer = { orgId: s.org.id, userId: s.customer.id, actorUserId: s.customer.id };
    await cancelAtPeriodEnd(deps, buyer, s.subscriptionId, noonOf('2026-12-01'));
    expect(await renew(s, noonOf('2026-12-23'))).toBe('not-due');
    expect((await subscriptionRow(t.db, s.subscriptionId)).status).toBe('cancel-at-period-end');
    expect(await renew(s, noonOf('2026-12-24'))).toBe('ended');
    expect(await subscriptionRow(t.db, s.subscriptionId)).toMatchObject({
      status: 'cancelled',
      // The paid period ended at the start of Dec 24 in New York.
      cancelledAt: new Date('2026-12-24T05:00:00Z'),
    });
    expect(await renewalInvoices(t.db, s.subscriptionId)).toEqual([]);
    expect(await renewalCharges(t.db, s.subscriptionId)).toEqual([]);
    expect(await notices(s)).toEqual([]);
  });

  it('ends, without charging, a past-due subscription cancelled before its retry', async () => {
    const s = await subscribeWithSandbox(t.db, { boughtOn: '2026-11-24' });
    await s.replaceCard(sandboxCardNumbers.declined);
    expect(await renew(s, noonOf('2026-12-24'))).toBe('past-due');
    const deps = { db: t.db, processor: sandboxProcessor(t.db), mailer: t.app.mailer };
    const buyer = { orgId: s.org.id, userId: s.customer.id, actorUserId: s.customer.id };
    await cancelAtPeriodEnd(deps, buyer, s.subscriptionId, noonOf('2026-12-24'));
    expect(await renew(s, noonOf('2026-12-25'))).toBe('ended');
    expect((await subscriptionRow(t.db, s.subscriptionId)).status).toBe('cancelled');
    expect(await renewalInvoices(t.db, s.subscriptionId)).toEqual([
      expect.objectContaining({ status: 'void' }),
    ]);
    expect(await renewalCharges(t.db, s.subscriptionId)).toEqual([
      ['2026-12-24:1', 9_900, 'declined'],
    ]);
  });

  it('keeps to the organisation the run names: another’s subscription is not touched', async () => {
    const a = await subscribeWithSandbox(t.db, { boughtOn: '2026-11-24' });
    const b = await subscribeWithSandbox(t.db, { boughtOn: '2026-11-24' });
    expect(await renew(b, noonOf('2026-12-24'), a.org.id)).toBe('not-due');
    expect(await subscriptionRow(t.db, b.subscriptionId)).toMatchObject({
      status: 'active',
      nextBillingDate: '2026-12-24',
    });
    expect(await renewalInvoices(t.db, b.subscriptionId)).toEqual([]);
    expect(await renewalCharges(t.db, b.subscriptionId)).toEqual([]);
  });

  it('queues each subscription due on its organisation’s day, under its own organisation, and only the sandbox’s', async () => {
    // Bought at 17:00 UTC on Nov 24: the 25th already in Auckland, so renewed on Dec 25 there.
    const auckland = await subscribeWithSandbox(t.db, {
      boughtOn: '2026-11-24',
      timeZone: 'Pacific/Auckland',
    });
    const losAngeles = await subscribeWithSandbox(t.db, {
      boughtOn: '2026-11-24',
      timeZone: 'America/Los_Angeles',
    });
    const stripes = await subscribeWithSandbox(t.db, { boughtOn: '2026-11-24' });
    await t.db
      .update(subscriptions)
      .set({ processorSubscriptionId: 'sub_1StripeRenewsThis' })
      .where(eq(subscriptions.id, stripes.subscriptionId));
    const queuedFor = (s: Subscribed) =>
      queuedJobs(t.database, 'subscription-renewal', 'subscriptionId', s.subscriptionId);

    // 10:30 UTC on Dec 24: 2:30 am in Los Angeles, 11:30 pm in Auckland.
    await queueDueRenewals(t.db, t.app.jobs, new Date('2026-12-24T10:30:00Z'));
    expect(await queuedFor(losAngeles)).toEqual([
      { orgId: losAngeles.org.id, subscriptionId: losAngeles.subscriptionId },
    ]);
    expect(await queuedFor(auckland)).toEqual([]);
    // An hour later it is Dec 25 in Auckland.
    await queueDueRenewals(t.db, t.app.jobs, new Date('2026-12-24T11:30:00Z'));
    expect(await queuedFor(auckland)).toEqual([
      { orgId: auckland.org.id, subscriptionId: auckland.subscriptionId },
    ]);
    expect(await queuedFor(stripes)).toEqual([]);
    expect(await renew(stripes, noonOf('2026-12-24'))).toBe('not-due');
  });
});

// The whole path as it runs in the demo: the cron's sweep, the renewal job, the emails.
describe.each(testDatabaseKinds)('sandbox renewals through the job queue on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  /** Bought a month ago (the 28th at most, so it is due today): its renewal is due now. */
  const dueToday = async () => {
    const today = dayKeyOf(Date.now(), 'America/New_York');
    const day = Math.min(28, Number(today.slice(8)));
    const boughtOn = addMonths(`${today.slice(0, 8)}${String(day).padStart(2, '0')}`, -1);
    return subscribeWithSandbox(t.db, { boughtOn });
  };

  it('renews what is due, and emails the receipt; a declined card gets the notice instead', async () => {
    const paying = await dueToday();
    const declining = await dueToday();
    await declining.replaceCard(sandboxCardNumbers.declined);
    await t.app.jobs.enqueue('renewals-due', {});
    await drainJobs(t.app);

    const [paid] = await renewalInvoices(t.db, paying.subscriptionId);
    expect(paid?.status).toBe('paid');
    // The purchase itself was charged without a queue: this receipt is the renewal's.
    expect((await settledEmailsTo(t.db, paying.customer.email!)).map((e) => e.subject)).toEqual([
      receiptTexts.subject(paying.org.label),
    ]);
    expect((await subscriptionRow(t.db, declining.subscriptionId)).status).toBe('past-due');
    expect((await settledEmailsTo(t.db, declining.customer.email!))[0]?.subject).toBe(
      renewalNotice.subject('Unlimited classes'),
    );
  });
});
