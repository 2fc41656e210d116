import { and, desc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import { punchCardCredits, subscriptions, type invoices, type products } from '@platform/schema/db';
import { punchCardToggle } from '@platform/schema/payments/charge-flow.rules';
import { creditBalances, type CreditBalance } from '@platform/schema/payments/credit-doc.zod';
import type { Db, Tx } from '../db/open-database.ts';
import { notifyChange } from '../sync/change-feed.ts';

/**
 * Punch-card credits (decision 0062): a ledger in `punch_card_credits`. Credits are given by a
 * paid invoice of a one-time product with punch-card groups (when the sale asked for them), by
 * an import or a staff adjustment, and taken by a booking. Every movement is a new row, every
 * row is announced to the person's devices (collection `credits`, read-only there).
 */

type InvoiceRow = typeof invoices.$inferSelect;
type ProductRow = typeof products.$inferSelect;

/**
 * The credits a paid invoice gives: one row per punch-card group, in the transaction that marks
 * the invoice paid. The unique (invoice, group) index makes a second call — a retried Run
 * charge, a replayed webhook — give nothing more. Answers how many rows it added.
 */
export async function issueCreditsForInvoice(
  tx: Tx,
  invoice: Pick<
    InvoiceRow,
    'id' | 'orgId' | 'customerUserId' | 'productId' | 'productName' | 'issuePunchCard'
  > & { createdByUserId: string | null },
  product: Pick<ProductRow, 'type' | 'punchCardConfiguration'>,
): Promise<number> {
  if (!punchCardToggle(product).issues(invoice.issuePunchCard)) return 0;
  const added = await tx
    .insert(punchCardCredits)
    .values(
      product.punchCardConfiguration.groups.map((group) => ({
        orgId: invoice.orgId,
        customerUserId: invoice.customerUserId,
        productId: invoice.productId,
        productName: invoice.productName,
        groupId: group.id,
        groupName: group.name,
        delta: group.credits,
        reason: 'purchase' as const,
        invoiceId: invoice.id,
        createdByUserId: invoice.createdByUserId,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: punchCardCredits.id });
  if (added.length > 0) {
    await notifyChange(tx, {
      collection: 'credits',
      orgId: invoice.orgId,
      ownerIds: [invoice.customerUserId],
    });
  }
  return added.length;
}

type GroupOf = { orgId: string; customerUserId: string; groupId: string };

/**
 * Serialises every change to one person's balance in one group until the transaction ends:
 * two bookings racing for the last credit see each other's row, never the same balance.
 */
async function lockBalance(tx: Tx, of: GroupOf) {
  const key = `credits:${of.orgId}:${of.customerUserId}:${of.groupId}`;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
}

async function balanceIn(db: Db | Tx, of: GroupOf): Promise<number> {
  const [row] = await db
    .select({ balance: sql<string>`coalesce(sum(${punchCardCredits.delta}), 0)` })
    .from(punchCardCredits)
    .where(
      and(
        eq(punchCardCredits.orgId, of.orgId),
        eq(punchCardCredits.customerUserId, of.customerUserId),
        eq(punchCardCredits.groupId, of.groupId),
        eq(punchCardCredits.deleted, false),
      ),
    );
  return Number(row?.balance ?? 0);
}

/** Balances per group of one person in one organisation (server side; devices sum their rows). */
export async function creditBalancesOf(
  db: Db | Tx,
  orgId: string,
  customerUserId: string,
): Promise<CreditBalance[]> {
  const rows = await db
    .select({
      customerUserId: punchCardCredits.customerUserId,
      groupId: punchCardCredits.groupId,
      groupName: punchCardCredits.groupName,
      productName: punchCardCredits.productName,
      delta: punchCardCredits.delta,
      createdAt: punchCardCredits.createdAt,
    })
    .from(punchCardCredits)
    .where(
      and(
        eq(punchCardCredits.orgId, orgId),
        eq(punchCardCredits.customerUserId, customerUserId),
        eq(punchCardCredits.deleted, false),
      ),
    );
  return creditBalances(rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })));
}

export type UseCreditsResult =
  { ok: true; balance: number; entryId: string } | { ok: false; balance: number };

/**
 * Takes `count` credits of a group (a booking, issue 16): refused — nothing written — when the
 * balance holds fewer. Must run inside the transaction that writes what uses them, so a booking
 * refused later gives its credits back by rolling back.
 */
export async function useCredits(
  tx: Tx,
  use: GroupOf & { count: number; reference: string; actorUserId: string | null },
): Promise<UseCreditsResult> {
  if (!Number.isInteger(use.count) || use.count < 1) throw new RangeError('count must be ≥ 1');
  await lockBalance(tx, use);
  const balance = await balanceIn(tx, use);
  if (balance < use.count) return { ok: false, balance };
  // Named as the latest credits given in this group were.
  const [given] = await tx
    .select({
      productId: punchCardCredits.productId,
      productName: punchCardCredits.productName,
      groupName: punchCardCredits.groupName,
    })
    .from(punchCardCredits)
    .where(
      and(
        eq(punchCardCredits.orgId, use.orgId),
        eq(punchCardCredits.customerUserId, use.customerUserId),
        eq(punchCardCredits.groupId, use.groupId),
        gt(punchCardCredits.delta, 0),
      ),
    )
    .orderBy(desc(punchCardCredits.createdAt))
    .limit(1);
  if (!given) return { ok: false, balance };
  const [entry] = await tx
    .insert(punchCardCredits)
    .values({
      orgId: use.orgId,
      customerUserId: use.customerUserId,
      productId: given.productId,
      productName: given.productName,
      groupId: use.groupId,
      groupName: given.groupName,
      delta: -use.count,
      reason: 'booking',
      reference: use.reference,
      createdByUserId: use.actorUserId,
    })
    .returning({ id: punchCardCredits.id });
  if (!entry) throw new Error('The credits row was not written.');
  await notifyChange(tx, {
    collection: 'credits',
    orgId: use.orgId,
    ownerIds: [use.customerUserId],
  });
  return { ok: true, balance: balance - use.count, entryId: entry.id };
}

/**
 * Gives back credits a booking used (cancelled in time, or by staff, or its class cancelled):
 * a positive row naming the booking, written once per booking — a second call finds the
 * refund and gives nothing more. Answers whether it gave any.
 */
export async function refundBookingCredits(
  tx: Tx,
  refund: GroupOf & { count: number; reference: string; actorUserId: string | null },
): Promise<boolean> {
  await lockBalance(tx, refund);
  const rows = await tx
    .select({
      delta: punchCardCredits.delta,
      productId: punchCardCredits.productId,
      productName: punchCardCredits.productName,
      groupName: punchCardCredits.groupName,
    })
    .from(punchCardCredits)
    .where(
      and(
        eq(punchCardCredits.orgId, refund.orgId),
        eq(punchCardCredits.customerUserId, refund.customerUserId),
        eq(punchCardCredits.groupId, refund.groupId),
        eq(punchCardCredits.reason, 'booking'),
        eq(punchCardCredits.reference, refund.reference),
      ),
    );
  // What this booking still holds: its uses less what was given back (a booking asked again
  // after a refund uses a credit again, and may be refunded again).
  const held = -rows.reduce((sum, row) => sum + row.delta, 0);
  const use = rows.find((row) => row.delta < 0);
  if (held < refund.count || !use) return false;
  await tx.insert(punchCardCredits).values({
    orgId: refund.orgId,
    customerUserId: refund.customerUserId,
    productId: use.productId,
    productName: use.productName,
    groupId: refund.groupId,
    groupName: use.groupName,
    delta: refund.count,
    reason: 'booking',
    reference: refund.reference,
    createdByUserId: refund.actorUserId,
  });
  await notifyChange(tx, {
    collection: 'credits',
    orgId: refund.orgId,
    ownerIds: [refund.customerUserId],
  });
  return true;
}

/**
 * What a person holds that may pay for a booking (booking.rules.ts `paymentFor`): the products
 * of their subscriptions in force on `today` (the organisation's day), and their credits left
 * in `groupIds`.
 */
export async function holdingsOf(
  tx: Tx,
  of: { orgId: string; customerUserId: string; groupIds: readonly string[]; today: string },
): Promise<{ activeProductIds: Set<string>; creditsByGroup: Map<string, number> }> {
  const subscribed = await tx
    .select({ productId: subscriptions.productId })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.orgId, of.orgId),
        eq(subscriptions.customerUserId, of.customerUserId),
        inArray(subscriptions.status, ['active', 'past-due', 'cancel-at-period-end', 'scheduled']),
        lte(subscriptions.startedOn, of.today),
        eq(subscriptions.deleted, false),
      ),
    );
  const creditsByGroup = new Map<string, number>();
  if (of.groupIds.length > 0) {
    const balances = await tx
      .select({
        groupId: punchCardCredits.groupId,
        balance: sql<string>`sum(${punchCardCredits.delta})`,
      })
      .from(punchCardCredits)
      .where(
        and(
          eq(punchCardCredits.orgId, of.orgId),
          eq(punchCardCredits.customerUserId, of.customerUserId),
          inArray(punchCardCredits.groupId, [...of.groupIds]),
          eq(punchCardCredits.deleted, false),
        ),
      )
      .groupBy(punchCardCredits.groupId);
    for (const row of balances) creditsByGroup.set(row.groupId, Number(row.balance));
  }
  return { activeProductIds: new Set(subscribed.map((row) => row.productId)), creditsByGroup };
}
