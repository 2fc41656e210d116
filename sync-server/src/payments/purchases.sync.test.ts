import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import {
  booking,
  pullAs,
  pushNewAs,
  pushAs,
  seedSyncOrg,
  type Person,
} from '../testing/sync-fixtures.ts';
import {
  archiveOffer,
  offerProduct,
  sellWithTestCard,
  totalOrder,
} from '../testing/payment-fixtures.ts';

import { addMonths } from '@platform/schema/payments/billing-calendar';
import { sandboxProcessor } from '../adapters/payments/sandbox.ts';
import {
  putCardOnFile,
  noonOf,
  sandboxCardNumbers,
  subscriptionRow,
} from '../testing/renewal-fixtures.ts';
import { renewSubscription } from './renewal.service.ts';

type Doc = { id: string; _deleted: boolean; [key: string]: unknown };
type Pulled = { documents: Doc[]; checkpoint: { id: string; lsn: number } | null };

/**
 * Issue 15, decision 0058: the catalogue and what was bought replicate to devices, read-only —
 * the catalogue to everyone in its organisation, purchases and paid invoices to the buyer's
 * family and to staff who sell.
 */
describe.each(testDatabaseKinds)('the catalogue and purchases on devices on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;
  let b: Awaited<ReturnType<typeof seedSyncOrg>>;

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await seedSyncOrg(t.app, t.db);
    b = await seedSyncOrg(t.app, t.db);
  });
  afterAll(() => t.close());

  const pull = async (who: Person, collection: string, after?: Pulled['checkpoint']) => {
    const query = after ? `?id=${after.id}&lsn=${after.lsn}&batchSize=1000` : '?batchSize=1000';
    const response = await pullAs(t, who, collection, query);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Pulled>();
  };
  const ids = (pulled: Pulled) => pulled.documents.map((doc) => doc.id).sort();
  const live = (pulled: Pulled) =>
    ids({ ...pulled, documents: pulled.documents.filter((d) => !d._deleted) });

  const product = (orgId: string, name: string, recurring = true) =>
    offerProduct(t.db, { orgId, userId: a.manager.id }, name, recurring);
  const sell = (orgId: string, customerUserId: string, productId: string) =>
    sellWithTestCard(t.db, { orgId, userId: a.manager.id }, customerUserId, productId);

  it('gives every member the catalogue of their own organisation, never another’s', async () => {
    const ours = await product(a.org.id, 'Unlimited classes');
    const theirs = await product(b.org.id, 'Their membership');
    for (const who of [a.parent, a.other, a.staff, a.manager]) {
      const pulled = await pull(who, 'products');
      expect(ids(pulled)).toContain(ours.id);
      expect(ids(pulled)).not.toContain(theirs.id);
    }
    const doc = (await pull(a.parent, 'products')).documents.find((d) => d.id === ours.id);
    expect(doc).toMatchObject({
      orgId: a.org.id,
      name: 'Unlimited classes',
      type: 'recurring',
      schedule: 'month',
      priceMinor: 4_900,
      state: 'available',
      _deleted: false,
    });
    // The processor's product id stays on the server.
    expect(doc).not.toHaveProperty('stripeProductId');
  });

  it('drops an archived product from every device: it arrives as a tombstone', async () => {
    const offered = await product(a.org.id, 'Summer pass');
    const before = await pull(a.parent, 'products');
    expect(live(before)).toContain(offered.id);
    await archiveOffer(t.db, { orgId: a.org.id, userId: a.manager.id }, offered.id);
    const after = await pull(a.parent, 'products', before.checkpoint);
    expect(after.documents).toEqual([
      expect.objectContaining({ id: offered.id, state: 'archived', _deleted: true }),
    ]);
    // A device starting now never shows it either.
    expect(live(await pull(a.other, 'products'))).not.toContain(offered.id);
  });

  it('gives a guardian their own and their children’s purchases, never another customer’s or organisation’s', async () => {
    const membership = await product(a.org.id, 'Family membership');
    const classPack = await product(a.org.id, 'Ten classes', false);
    const own = await sell(a.org.id, a.parent.id, membership.id);
    const childs = await sell(a.org.id, a.childId, membership.id);
    const oneOff = await sell(a.org.id, a.childId, classPack.id);
    const others = await sell(a.org.id, a.otherCustomerId, membership.id);
    const elsewhere = await sell(b.org.id, b.parent.id, (await product(b.org.id, 'Elsewhere')).id);
    // Totaled and never charged: no purchase.
    const { invoiceId: unpaid } = await totalOrder(
      t.db,
      { orgId: a.org.id, userId: a.manager.id },
      a.parent.id,
      membership.id,
    );

    const purchases = await pull(a.parent, 'purchases');
    expect(live(purchases)).toEqual([own.subscriptionId, childs.subscriptionId].sort());
    expect(purchases.documents.find((d) => d.id === own.subscriptionId)).toMatchObject({
      customerUserId: a.parent.id,
      productId: membership.id,
      productName: 'Family membership',
      priceMinor: 4_900,
      status: 'active',
      cancelledAt: null,
    });
    const invoices = await pull(a.parent, 'invoices');
    expect(live(invoices)).toEqual([own.invoiceId, childs.invoiceId, oneOff.invoiceId].sort());
    // The unpaid order of their own reaches the device only as a tombstone.
    expect(invoices.documents.find((d) => d.id === unpaid)).toMatchObject({ _deleted: true });
    expect(invoices.documents.find((d) => d.id === oneOff.invoiceId)).toMatchObject({
      customerUserId: a.childId,
      subscriptionId: null,
      productName: 'Ten classes',
      totalMinor: 4_900,
      lineItems: [expect.objectContaining({ type: 'subscription', finalAmount: 4_900 })],
    });
    for (const stranger of [others, elsewhere]) {
      expect(ids(purchases)).not.toContain(stranger.subscriptionId);
      expect(ids(invoices)).not.toContain(stranger.invoiceId);
    }

    // The other customer sees only their own; another organisation's customer none of these.
    expect(live(await pull(a.other, 'purchases'))).toEqual([others.subscriptionId]);
    expect(live(await pull(b.parent, 'purchases'))).toEqual([elsewhere.subscriptionId]);
    expect(live(await pull(b.parent, 'invoices'))).toEqual([elsewhere.invoiceId]);
    // Staff who sell see every sale of their organisation; staff who do not, none.
    const sales = live(await pull(a.manager, 'purchases'));
    expect(sales).toEqual(
      expect.arrayContaining([own, childs, others].map((sale) => sale.subscriptionId)),
    );
    expect(sales).not.toContain(elsewhere.subscriptionId);
    expect((await pullAs(t, a.staff, 'purchases')).statusCode).toBe(403);
    expect((await pullAs(t, a.staff, 'invoices')).statusCode).toBe(403);
  });

  it('brings a new charge to the buyer’s next pull', async () => {
    const before = {
      purchases: await pull(a.other, 'purchases'),
      invoices: await pull(a.other, 'invoices'),
    };
    const sale = await sell(a.org.id, a.otherCustomerId, (await product(a.org.id, 'Pilates')).id);
    const purchases = await pull(a.other, 'purchases', before.purchases.checkpoint);
    const invoices = await pull(a.other, 'invoices', before.invoices.checkpoint);
    expect(live(purchases)).toEqual([sale.subscriptionId]);
    expect(invoices.documents).toEqual([
      expect.objectContaining({ id: sale.invoiceId, productName: 'Pilates', _deleted: false }),
    ]);
  });

  it('brings a renewal to the buyer’s next pull: its paid invoice and the purchase moved on; a declined one as past due', async () => {
    const sale = await sell(a.org.id, a.otherCustomerId, (await product(a.org.id, 'Spin')).id);
    const subscriptionId = sale.subscriptionId!;
    const due = (await subscriptionRow(t.db, subscriptionId)).nextBillingDate!;
    const renew = (day: string) =>
      renewSubscription(
        { db: t.db, processor: sandboxProcessor(t.db), jobs: t.app.jobs },
        { orgId: a.org.id, subscriptionId },
        noonOf(day),
      );
    const before = {
      purchases: await pull(a.other, 'purchases'),
      invoices: await pull(a.other, 'invoices'),
    };
    expect(await renew(due)).toBe('paid');
    const purchases = await pull(a.other, 'purchases', before.purchases.checkpoint);
    const invoices = await pull(a.other, 'invoices', before.invoices.checkpoint);
    expect(purchases.documents).toEqual([
      expect.objectContaining({
        id: subscriptionId,
        status: 'active',
        nextBillingDate: addMonths(due, 1),
        _deleted: false,
      }),
    ]);
    expect(invoices.documents).toEqual([
      expect.objectContaining({
        subscriptionId,
        customerUserId: a.otherCustomerId,
        totalMinor: 4_900,
        _deleted: false,
        lineItems: [expect.objectContaining({ description: expect.stringMatching(/^Spin — /) })],
      }),
    ]);

    // The next renewal is declined: the purchase reaches the device as past due, no invoice.
    await putCardOnFile(
      t.db,
      { orgId: a.org.id, userId: a.otherCustomerId },
      subscriptionId,
      sandboxCardNumbers.declined,
    );
    expect(await renew(addMonths(due, 1))).toBe('past-due');
    const declined = await pull(a.other, 'purchases', purchases.checkpoint);
    expect(declined.documents).toEqual([
      expect.objectContaining({ id: subscriptionId, status: 'past-due' }),
    ]);
    const none = await pull(a.other, 'invoices', invoices.checkpoint);
    expect(live(none)).toEqual([]);
  });

  it('refuses every push to the catalogue and purchases, and still takes the device’s other pushes', async () => {
    const offered = await product(a.org.id, 'Yoga');
    const sale = await sell(a.org.id, a.parent.id, offered.id);
    const catalogue = (await pull(a.parent, 'products')).documents.find(
      (d) => d.id === offered.id,
    )!;
    const purchase = (await pull(a.parent, 'purchases')).documents.find(
      (d) => d.id === sale.subscriptionId,
    )!;
    const invoice = (await pull(a.parent, 'invoices')).documents.find(
      (d) => d.id === sale.invoiceId,
    )!;
    const edits: Array<[string, Doc, Record<string, unknown>]> = [
      ['products', catalogue, { priceMinor: 1 }],
      ['purchases', purchase, { status: 'cancelled' }],
      ['invoices', invoice, { totalMinor: 0 }],
    ];
    for (const who of [a.parent, a.manager]) {
      for (const [collection, doc, change] of edits) {
        const response = await pushAs(t, who, collection, [
          { assumedMasterState: doc, newDocumentState: { ...doc, ...change } },
        ]);
        expect(response.statusCode, `${collection} ${response.body}`).toBe(422);
        expect(response.json()).toEqual({
          errors: [{ id: doc.id, message: 'You can read these documents but not change them.' }],
        });
      }
    }
    const unchanged = (await pull(a.parent, 'products')).documents.find((d) => d.id === offered.id);
    expect(unchanged).toEqual(catalogue);
    // The same device's bookings still go through.
    const mine = booking(a.org.id, a.parent.id);
    expect((await pushNewAs(t, a.parent, 'bookings', [mine])).statusCode).toBe(200);
  });
});
