import type { Tx } from '../db/open-database.ts';
import { notifyChange } from '../sync/change-feed.ts';

/**
 * Tells the buyer's devices (and staff who sell) that a subscription or its invoices changed:
 * collections `purchases` and `invoices` (decision 0058), in the transaction of the change.
 */
export async function announceToBuyer(
  tx: Tx,
  subscription: { orgId: string; customerUserId: string },
  collections: Array<'purchases' | 'invoices'>,
) {
  for (const collection of collections) {
    await notifyChange(tx, {
      collection,
      orgId: subscription.orgId,
      ownerIds: [subscription.customerUserId],
    });
  }
}
