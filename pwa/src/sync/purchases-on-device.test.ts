import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionsFor } from '@platform/schema/sync/access.rules';
import { createTestApp, listenOnLoopback } from '../../../sync-server/src/testing/test-app.ts';
import { seedSyncOrg } from '../../../sync-server/src/testing/sync-fixtures.ts';
import {
  archiveOffer,
  offerProduct,
  sellWithTestCard,
} from '../../../sync-server/src/testing/payment-fixtures.ts';
import { openTestDevice, until } from './test-device.ts';

/**
 * Decision 0058 on a device: a guardian's app replicates the catalogue and the family's
 * purchases as collectionsFor chooses them, and the live stream brings a new charge and an
 * archived product without a reload (catalogue.service and charge.service announce them).
 */
describe('the catalogue and purchases on a guardian’s device', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let org: Awaited<ReturnType<typeof seedSyncOrg>>;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp(process.env.DATABASE_URL ? 'postgres' : 'pglite');
    org = await seedSyncOrg(t.app, t.db);
    base = await listenOnLoopback(t.app);
  });
  afterAll(() => t.close());

  it('holds the catalogue and the family’s purchases, and follows changes live', async () => {
    const staff = { orgId: org.org.id, userId: org.manager.id };
    const membership = await offerProduct(t.db, staff, 'Family membership');
    const collections = collectionsFor({ view: 'customer', orgId: org.org.id, claims: [] });
    expect(collections).toEqual(
      expect.arrayContaining(['products', 'purchases', 'invoices', 'bookings', 'org-branding']),
    );
    const phone = await openTestDevice('phone', org.parent, base, { collections });
    try {
      const { products, purchases, invoices } = phone.db.collections;
      await until(async () => (await products.findOne(membership.id).exec()) !== null, 10_000);

      // Staff sell the child a membership while the app is open: it arrives by the stream.
      const { invoiceId, subscriptionId } = await sellWithTestCard(
        t.db,
        staff,
        org.childId,
        membership.id,
      );
      if (!subscriptionId) throw new Error('a membership starts a subscription');
      await until(async () => (await invoices.findOne(invoiceId).exec()) !== null, 10_000);
      const purchase = await purchases.findOne(subscriptionId).exec();
      expect(purchase?.toJSON()).toMatchObject({
        customerUserId: org.childId,
        productName: 'Family membership',
        status: 'active',
      });

      // Archived: the device drops it.
      await archiveOffer(t.db, staff, membership.id);
      await until(async () => (await products.findOne(membership.id).exec()) === null, 10_000);
    } finally {
      await phone.sync.stop();
      await phone.db.close();
    }
  });
});
