import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptions } from '@platform/schema/db';
import type { AssignmentRow } from '@platform/schema/imports/import-rules';
import type { PaymentProcessor } from '../adapters/payments/port.ts';
import type { Db } from '../db/open-database.ts';
import type { JobName } from '../jobs/job-definitions.ts';
import { startStripeBench, stripeCustomerWithCard } from '../testing/stripe-fixtures.ts';
import type { StripeWireServer } from '../testing/stripe-wire-server.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { importAssignmentBatch } from './assignments-import.service.ts';
import {
  queuePendingCardStarts,
  startCardSubscriptions,
} from './card-subscription-start.service.ts';
import { cancelAtPeriodEnd } from './shop.service.ts';
import { windDownAgreedEnds } from './subscription-ends.service.ts';

// 2026-11-24 15:00 UTC: the 24th in New York, the default zone of a new organisation.
const now = new Date('2026-11-24T15:00:00.000Z');
const start = '2026-12-10';

/**
 * Card subscriptions started from a product assignments file, with Stripe (decision 0073):
 * nothing is asked of Stripe inside the import; the start job makes one Stripe subscription per
 * row — first invoice on the start date, at the agreed price, on the card on file — however
 * often and however concurrently it runs; a cancellation racing the start still stops it.
 */
describe.each(testDatabaseKinds)('card subscriptions from a file with Stripe on %s', (kind) => {
  let db: Db;
  let wire: StripeWireServer;
  let stripe: PaymentProcessor;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, wire, stripe, close } = await startStripeBench(kind));
  });
  afterAll(() => close());

  const customerWithCard = () => stripeCustomerWithCard(db, stripe);

  /** The import's write of one row, as the csv-import job makes it; the jobs it queued. */
  async function importRow(
    o: Awaited<ReturnType<typeof customerWithCard>>,
    endDate: string | null = null,
  ) {
    const queued: Array<{ name: JobName; payload: { orgId: string; subscriptionIds: string[] } }> =
      [];
    const row: AssignmentRow & { row: number; cells: string[] } = {
      row: 1,
      cells: [],
      email: o.customer.email!.toLowerCase(),
      productId: o.productId,
      action: 'start-stripe-subscription',
      startDate: start,
      endDate,
      discount: { type: 'fixed_amount', amount: 20 },
      priceMinor: 7_900,
    };
    const counts = await db.transaction((tx) =>
      importAssignmentBatch(
        tx,
        {
          orgId: o.org.id,
          staffUserId: null,
          now,
          payments: {
            mailer: {
              kind: 'outbox',
              send: () => Promise.reject(new Error('no email is sent for a card start')),
            },
            publicUrl: 'http://localhost',
            processor: 'stripe',
            jobs: {
              enqueue: async (name, payload) => {
                queued.push({ name, payload: payload as (typeof queued)[number]['payload'] });
                return 'job';
              },
            },
          },
        },
        [row],
      ),
    );
    return { counts, queued };
  }
  const subscriptionsAt = () =>
    wire.created('subscription').length + wire.created('payment_intent').length;

  it('asks Stripe nothing in the import, then makes one subscription however often and concurrently the job runs: first invoice on the start date, at the agreed price, on the card on file', async () => {
    const o = await customerWithCard();
    const before = subscriptionsAt();
    const { counts, queued } = await importRow(o);
    expect(counts).toMatchObject({ cardStarted: 1, unchanged: 0 });
    expect(subscriptionsAt()).toBe(before);
    expect(queued.map((q) => q.name)).toEqual(['card-subscription-start']);
    const payload = queued[0]!.payload;

    const runs = await Promise.all(
      [1, 2, 3, 4].map(() => startCardSubscriptions({ db, processor: stripe }, payload)),
    );
    expect(runs.flat().filter((r) => r === 'started').length).toBeGreaterThanOrEqual(1);
    expect(await startCardSubscriptions({ db, processor: stripe }, payload)).toEqual([
      'done-before',
    ]);
    const [sub] = await db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, payload.subscriptionIds[0]!));
    const made = wire
      .created('subscription')
      .filter((s) => s.default_payment_method === o.card.processorPaymentMethodId);
    expect(made).toHaveLength(1);
    expect(sub!.processorSubscriptionId).toBe(made[0]!.id);
    // Stripe's first invoice on the start date (noon in New York), the agreed price, no coupon.
    expect(made[0]).toMatchObject({
      trial_end: Date.UTC(2026, 11, 10, 17) / 1000,
      cancel_at_period_end: false,
    });
    const item = (made[0]!.items as { data: Array<{ price: Record<string, unknown> }> }).data[0]!;
    expect(item.price).toMatchObject({
      product: o.processorProductId,
      unit_amount: 7_900,
      recurring: { interval: 'month', interval_count: 1 },
    });
    expect(
      wire
        .created('payment_intent')
        .filter((i) => i.payment_method === o.card.processorPaymentMethodId),
    ).toEqual([]);
  });

  it('a start Stripe did not answer is asked again by the retry with the same key; the sweep finds one whose job was lost', async () => {
    const o = await customerWithCard();
    const { queued } = await importRow(o);
    const payload = queued[0]!.payload;
    // On the first try and on both of the SDK's own retries: Stripe made it, we never heard.
    wire.failNextOn('/v1/subscriptions', 'drop', 'drop', 'drop');
    await expect(startCardSubscriptions({ db, processor: stripe }, payload)).rejects.toThrow();
    const [lost] = await db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, payload.subscriptionIds[0]!));
    expect(lost!.processorSubscriptionId).toBeNull();

    // The job's retries failed for good: the hourly sweep queues it again.
    const swept: Array<{ orgId: string; subscriptionIds: string[] }> = [];
    const jobs = {
      enqueue: async (_name: JobName, job: object) => {
        swept.push(job as (typeof swept)[number]);
        return 'job';
      },
    };
    expect(await queuePendingCardStarts(db, jobs, 'stripe', now)).toBe(0);
    await queuePendingCardStarts(db, jobs, 'stripe', new Date(Date.now() + 60 * 60_000));
    const mine = swept.find((s) => s.orgId === o.org.id);
    expect(mine?.subscriptionIds).toEqual(payload.subscriptionIds);
    expect(await startCardSubscriptions({ db, processor: stripe }, mine!)).toEqual(['started']);
    const made = wire
      .created('subscription')
      .filter((s) => s.default_payment_method === o.card.processorPaymentMethodId);
    expect(made).toHaveLength(1);
    const key = `subscription:${payload.subscriptionIds[0]}`;
    expect(wire.requests.filter((r) => r.idempotencyKey === key)).toHaveLength(4);
  });

  it('a customer who cancels before the start is not billed: cancelled at Stripe whichever comes first, the cancellation or the start', async () => {
    for (const order of ['cancel-first', 'start-first'] as const) {
      const o = await customerWithCard();
      const { queued } = await importRow(o);
      const payload = queued[0]!.payload;
      const subscriptionId = payload.subscriptionIds[0]!;
      const buyer = { orgId: o.org.id, userId: o.customer.id, actorUserId: o.customer.id };
      const deps = {
        db,
        processor: stripe,
        mailer: { kind: 'outbox' as const, send: async () => undefined },
      };
      if (order === 'cancel-first') {
        await cancelAtPeriodEnd(deps, buyer, subscriptionId, now);
        await startCardSubscriptions({ db, processor: stripe }, payload);
      } else {
        await startCardSubscriptions({ db, processor: stripe }, payload);
        await cancelAtPeriodEnd(deps, buyer, subscriptionId, now);
      }
      const [sub] = await db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.id, subscriptionId));
      expect(sub!.status, order).toBe('cancel-at-period-end');
      expect(wire.object(sub!.processorSubscriptionId!), order).toMatchObject({
        cancel_at_period_end: true,
      });
    }
  });

  it('one with an agreed end is stopped at Stripe once its next invoice would be on or after the end — and asked again when Stripe does not answer', async () => {
    const o = await customerWithCard();
    const { queued } = await importRow(o, '2027-02-20');
    const payload = queued[0]!.payload;
    await startCardSubscriptions({ db, processor: stripe }, payload);
    const id = payload.subscriptionIds[0]!;
    const sweep = () => windDownAgreedEnds({ db, processor: stripe }, now);
    const read = async () =>
      (await db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
    expect(await sweep()).toBe(0);
    // Stripe billed the first two invoices (its webhooks moved the next one past the end).
    await db
      .update(subscriptions)
      .set({ status: 'active', nextBillingDate: '2027-02-10' })
      .where(eq(subscriptions.id, id));
    expect(await sweep()).toBe(0);
    await db
      .update(subscriptions)
      .set({ nextBillingDate: '2027-03-10' })
      .where(eq(subscriptions.id, id));
    wire.failNextOn(
      `/v1/subscriptions/${(await read()).processorSubscriptionId}`,
      'http-500',
      'http-500',
      'http-500',
    );
    expect(await sweep()).toBe(0);
    expect((await read()).status).toBe('active');
    expect(await sweep()).toBe(1);
    const sub = await read();
    expect(sub.status).toBe('cancel-at-period-end');
    expect(wire.object(sub.processorSubscriptionId!)).toMatchObject({ cancel_at_period_end: true });
  });
});
