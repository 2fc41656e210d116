import { eq, sql } from 'drizzle-orm';
import {
  invoices,
  organizations,
  processorEvents,
  products,
  subscriptions,
  users,
} from '@platform/schema/db';
import type { Db, Tx } from '../db/open-database.ts';

/**
 * Records an event as received, unless it was before: true only for the first delivery. In the
 * transaction of the event's effect, so the effect and the record commit together; a second
 * delivery at the same moment waits on the first's row and then finds it (decision 0057).
 */
export async function recordFirstDelivery(tx: Tx, event: { id: string; type: string }) {
  const rows = await tx
    .insert(processorEvents)
    .values({ id: event.id, type: event.type, outcome: 'received' })
    .onConflictDoNothing({ target: processorEvents.id })
    .returning({ id: processorEvents.id });
  return rows.length === 1;
}

export async function markEventProcessed(tx: Tx, eventId: string, outcome: string, at: Date) {
  await tx
    .update(processorEvents)
    .set({ outcome, processedAt: at })
    .where(eq(processorEvents.id, eventId));
}

/** A renewal the processor billed: one row per processor invoice, whatever delivers it twice. */
export async function insertRenewalInvoice(tx: Tx, values: typeof invoices.$inferInsert) {
  await tx
    .insert(invoices)
    .values(values)
    .onConflictDoNothing({
      target: invoices.processorInvoiceId,
      where: sql`${invoices.processorInvoiceId} is not null`,
    });
}

export async function productName(tx: Tx, productId: string) {
  const [row] = await tx
    .select({ name: products.name, processorProductId: products.processorProductId })
    .from(products)
    .where(eq(products.id, productId));
  return row ?? null;
}

/** Who is told of a failed renewal, and what of. */
export async function renewalNoticeFacts(db: Db, subscriptionId: string) {
  const [row] = await db
    .select({
      orgId: subscriptions.orgId,
      email: users.email,
      firstName: users.firstName,
      organization: organizations.label,
      product: products.name,
    })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.customerUserId))
    .innerJoin(organizations, eq(organizations.id, subscriptions.orgId))
    .innerJoin(products, eq(products.id, subscriptions.productId))
    .where(eq(subscriptions.id, subscriptionId));
  return row ?? null;
}
