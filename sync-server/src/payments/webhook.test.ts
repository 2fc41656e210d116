import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { invoices, processorEvents, products, subscriptions } from '@platform/schema/db';
import { insertTestOrg, insertTestUser, uniqueEmail } from '../testing/auth-fixtures.ts';
import { drainJobs, settledEmailsTo } from '../testing/job-fixtures.ts';
import {
  signedDelivery,
  stripeEvent,
  stripeInvoice,
  stripeSubscription,
} from '../testing/stripe-events.ts';
import { startStripeWireServer, type StripeWireServer } from '../testing/stripe-wire-server.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { renewalNotice } from './renewal-notice.service.ts';
import { webhookMessages } from './webhook.routes.ts';

const secret = 'whsec_test_webhooks';

// Issue 15, decision 0057: Stripe's webhooks, through the real app, each processed once.
describe.each(testDatabaseKinds)('Stripe webhooks on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let wire: StripeWireServer;

  beforeAll(async () => {
    wire = await startStripeWireServer();
    t = await createTestApp(kind, {
      env: {
        STRIPE_SECRET_KEY: 'sk_test_webhooks',
        STRIPE_WEBHOOK_SECRET: secret,
        STRIPE_PUBLISHABLE_KEY: 'pk_test_wire',
        STRIPE_API_BASE: wire.apiBase,
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await wire.close();
  });

  /** An organisation's customer with a monthly subscription billed by Stripe. */
  async function subscribed() {
    const org = await insertTestOrg(t.db);
    const customer = await insertTestUser(t.db, { email: uniqueEmail() });
    const [product] = await t.db
      .insert(products)
      .values({
        orgId: org.id,
        name: 'Unlimited classes',
        type: 'recurring',
        schedule: 'month',
        priceMinor: 9_900,
        processorProductId: 'prod_x',
      })
      .returning();
    const processorSubscriptionId = `sub_${crypto.randomUUID().replaceAll('-', '')}`;
    const [subscription] = await t.db
      .insert(subscriptions)
      .values({
        orgId: org.id,
        customerUserId: customer.id,
        productId: product!.id,
        productName: product!.name,
        priceMinor: 9_900,
        status: 'active',
        startedOn: '2026-11-24',
        nextBillingDate: '2026-12-24',
        processorSubscriptionId,
      })
      .returning();
    return { org, customer, subscription: subscription!, processorSubscriptionId };
  }

  const deliver = (event: object, key = secret) => t.app.inject(signedDelivery(event, key));
  const subscriptionRow = async (id: string) =>
    (await t.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
  const renewalsOf = (subscriptionId: string) =>
    t.db.select().from(invoices).where(eq(invoices.subscriptionId, subscriptionId));
  const recorded = async (eventId: string) =>
    (await t.db.select().from(processorEvents).where(eq(processorEvents.id, eventId)))[0];
  async function noticesFor(subscriptionId: string) {
    const counts = await Promise.all(
      ['pgboss.job', 'pgboss.archive'].map(async (table) => {
        const { rows } = await t.app.database.executeSql(
          `select count(*)::int as n from ${table}
            where name = 'renewal-failed-notice' and data->>'subscriptionId' = $1`,
          [subscriptionId],
        );
        return Number((rows[0] as { n: number }).n);
      }),
    );
    return counts[0]! + counts[1]!;
  }
  const paid = (processorSubscriptionId: string) =>
    stripeEvent(
      'invoice.paid',
      stripeInvoice({
        subscription: processorSubscriptionId,
        amount: 9_900,
        start: '2026-12-24T17:00:00Z',
        end: '2027-01-24T17:00:00Z',
      }),
    );
  const failed = (processorSubscriptionId: string) =>
    stripeEvent(
      'invoice.payment_failed',
      stripeInvoice({
        subscription: processorSubscriptionId,
        amount: 9_900,
        start: '2026-12-24T17:00:00Z',
        end: '2027-01-24T17:00:00Z',
        status: 'open',
      }),
    );

  it('refuses a missing, wrong or stale-bodied signature with 400, and processes nothing', async () => {
    const s = await subscribed();
    const event = paid(s.processorSubscriptionId);
    const wrong = await deliver(event, 'whsec_someone_else');
    const unsigned = await t.app.inject({ ...signedDelivery(event, secret), headers: {} });
    const tampered = await t.app.inject({
      ...signedDelivery(event, secret),
      payload: JSON.stringify({ ...event, type: 'customer.subscription.deleted' }),
    });
    for (const res of [wrong, unsigned, tampered]) {
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(webhookMessages.badSignature);
    }
    expect(await recorded(event.id)).toBeUndefined();
    expect(await renewalsOf(s.subscription.id)).toEqual([]);
    expect((await subscriptionRow(s.subscription.id)).nextBillingDate).toBe('2026-12-24');
  });

  it('keeps the raw body to the webhook alone: other routes still read JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: 42 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().issues[0].path).toEqual(['email']);
  });

  it('records a paid renewal from invoice.paid and moves the next billing date to the period’s end', async () => {
    const s = await subscribed();
    const event = paid(s.processorSubscriptionId);
    const res = await deliver(event);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true, replay: false });
    expect((await subscriptionRow(s.subscription.id)).nextBillingDate).toBe('2027-01-24');
    const [renewal] = await renewalsOf(s.subscription.id);
    expect(renewal).toMatchObject({
      orgId: s.org.id,
      customerUserId: s.customer.id,
      status: 'paid',
      totalMinor: 9_900,
      currency: 'USD',
      processorInvoiceId: event.data.object.id,
      totals: {
        total: 9_900,
        subtotal: 9_900,
        couponDiscount: 0,
        nextBillingDate: '2027-01-24',
        lineItems: [{ type: 'subscription', originalAmount: 9_900, finalAmount: 9_900 }],
      },
    });
    expect(await recorded(event.id)).toMatchObject({
      type: 'invoice.paid',
      outcome: 'applied',
      processedAt: expect.any(Date),
    });
  });

  it('has one effect for an event delivered twice, and twice at the same moment, round after round', async () => {
    const s = await subscribed();
    const once = failed(s.processorSubscriptionId);
    const answers = [await deliver(once), await deliver(once)];
    expect(answers.map((res) => [res.statusCode, res.json().replay])).toEqual([
      [200, false],
      [200, true],
    ]);
    expect(await noticesFor(s.subscription.id)).toBe(1);

    const rounds = kind === 'postgres' ? 40 : 5;
    for (let round = 0; round < rounds; round++) {
      const event = failed(s.processorSubscriptionId);
      const replayFlags = (await Promise.all([1, 2, 3].map(() => deliver(event)))).map((res) => {
        expect(res.statusCode).toBe(200);
        return res.json().replay as boolean;
      });
      expect(
        replayFlags.filter((replay) => !replay),
        `round ${round}`,
      ).toHaveLength(1);
    }
    expect(await noticesFor(s.subscription.id)).toBe(1 + rounds);

    const renewal = paid(s.processorSubscriptionId);
    await Promise.all([deliver(renewal), deliver(renewal)]);
    expect(await renewalsOf(s.subscription.id)).toHaveLength(1);
  });

  it('marks a failed renewal past due and emails the customer once, through the job queue', async () => {
    const s = await subscribed();
    expect((await deliver(failed(s.processorSubscriptionId))).statusCode).toBe(200);
    expect((await subscriptionRow(s.subscription.id)).status).toBe('past-due');
    expect(await noticesFor(s.subscription.id)).toBe(1);
    await drainJobs(t.app);
    const emails = await settledEmailsTo(t.db, s.customer.email!);
    expect(emails.map((e) => e.subject)).toEqual([renewalNotice.subject('Unlimited classes')]);
    // Paid at the next try: active again.
    await deliver(paid(s.processorSubscriptionId));
    expect((await subscriptionRow(s.subscription.id)).status).toBe('active');
  });

  it('follows the subscription: cancel at period end, then deleted; an older event undoes nothing', async () => {
    const s = await subscribed();
    const at = Math.floor(Date.now() / 1000);
    const ending = stripeEvent(
      'customer.subscription.updated',
      stripeSubscription({
        id: s.processorSubscriptionId,
        status: 'active',
        cancelAtPeriodEnd: true,
      }),
      at,
    );
    await deliver(ending);
    expect((await subscriptionRow(s.subscription.id)).status).toBe('cancel-at-period-end');
    const stale = stripeEvent(
      'customer.subscription.updated',
      stripeSubscription({ id: s.processorSubscriptionId, status: 'active' }),
      at - 60,
    );
    expect((await deliver(stale)).statusCode).toBe(200);
    expect((await subscriptionRow(s.subscription.id)).status).toBe('cancel-at-period-end');
    expect((await recorded(stale.id))?.outcome).toMatch(/^ignored: older/);

    const deleted = stripeEvent(
      'customer.subscription.deleted',
      stripeSubscription({
        id: s.processorSubscriptionId,
        status: 'canceled',
        canceledAt: '2026-12-24T17:00:00Z',
      }),
      at + 1,
    );
    await deliver(deleted);
    expect(await subscriptionRow(s.subscription.id)).toMatchObject({
      status: 'cancelled',
      cancelledAt: new Date('2026-12-24T17:00:00Z'),
    });
  });

  it('answers 200 and records, with no effect, what is not ours to act on — and goes on with the next', async () => {
    const s = await subscribed();
    const stranger = paid('sub_of_no_organisation_we_know');
    // Metadata naming one of our organisations does not make it ours.
    (stranger.data.object.parent.subscription_details.metadata as Record<string, string>).orgId =
      s.org.id;
    const unknownType = stripeEvent('charge.refund.updated', { id: 're_1', object: 'refund' });
    const odd = stripeEvent('invoice.paid', { id: 'in_odd', object: 'invoice' });
    for (const event of [stranger, unknownType, odd]) {
      const res = await deliver(event);
      expect(res.statusCode, event.type).toBe(200);
      expect((await recorded(event.id))?.outcome, event.type).toMatch(/^ignored: /);
    }
    expect(await renewalsOf(s.subscription.id)).toEqual([]);
    expect((await subscriptionRow(s.subscription.id)).nextBillingDate).toBe('2026-12-24');
    // The odd ones stop nothing: the next event of ours is applied.
    await deliver(paid(s.processorSubscriptionId));
    expect((await subscriptionRow(s.subscription.id)).nextBillingDate).toBe('2027-01-24');
  });
});

describe('Stripe webhooks with the sandbox', () => {
  it('have no route: the sandbox answers 404', async () => {
    const t = await createTestApp('pglite');
    try {
      const res = await t.app.inject(signedDelivery(stripeEvent('invoice.paid', {}), secret));
      expect(res.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
