import { and, eq, inArray, isNull } from 'drizzle-orm';
import { subscriptions } from '@platform/schema/db';
import { renewingStatuses } from '@platform/schema/payments/card-on-file.rules';
import type { CardOnFile } from '@platform/schema/payments/purchase-docs.zod';
import type { Db, Tx } from '../db/open-database.ts';

type Reader = Db | Tx;

export async function findSubscription(db: Reader, orgId: string, subscriptionId: string) {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.orgId, orgId), eq(subscriptions.id, subscriptionId)));
  return row ?? null;
}

/** The subscription, locked for this transaction (one renewal at a time per subscription). */
export async function lockSubscription(tx: Tx, orgId: string, subscriptionId: string) {
  const [row] = await tx
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.orgId, orgId), eq(subscriptions.id, subscriptionId)))
    .for('update');
  return row ?? null;
}

/** Ours for a processor's subscription id — the only way an event finds its organisation. */
export async function lockSubscriptionByProcessorId(tx: Tx, processorSubscriptionId: string) {
  const [row] = await tx
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.processorSubscriptionId, processorSubscriptionId))
    .for('update');
  return row ?? null;
}

/** Records the processor's subscription once: a second, racing answer (the same id) is a no-op. */
export async function setProcessorSubscriptionId(
  db: Reader,
  subscriptionId: string,
  processorSubscriptionId: string,
) {
  await db
    .update(subscriptions)
    .set({ processorSubscriptionId, updatedAt: new Date() })
    .where(
      and(eq(subscriptions.id, subscriptionId), isNull(subscriptions.processorSubscriptionId)),
    );
}

export async function updateSubscription(
  tx: Tx,
  subscriptionId: string,
  values: Partial<typeof subscriptions.$inferInsert>,
) {
  // A replicated row (decision 0058): every change says when it was made.
  await tx
    .update(subscriptions)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(subscriptions.id, subscriptionId));
}

/** A person's subscriptions in the organisation that will charge again (their card matters). */
export async function renewingSubscriptionsOf(db: Reader, orgId: string, userId: string) {
  return db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.orgId, orgId),
        eq(subscriptions.customerUserId, userId),
        inArray(subscriptions.status, [...renewingStatuses]),
      ),
    );
}

/** These subscriptions renew with this card from now on (decision 0064). */
export async function setSubscriptionsCard(
  tx: Tx,
  orgId: string,
  subscriptionIds: string[],
  method: { paymentMethodId: string; card: CardOnFile },
) {
  if (subscriptionIds.length === 0) return;
  await tx
    .update(subscriptions)
    .set({ paymentMethodId: method.paymentMethodId, card: method.card, updatedAt: new Date() })
    .where(and(eq(subscriptions.orgId, orgId), inArray(subscriptions.id, subscriptionIds)));
}
