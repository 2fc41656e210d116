import {
  refundsToSettleTexts as texts,
  type RefundsToSettle,
} from '@platform/schema/payments/refunds-to-settle.zod';
import { rosterNamesOf } from '../crm/customers.service.ts';
import type { Db, Tx } from '../db/open-database.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { Conflict, NotFound } from '../plugins/domain-errors.ts';
import { notifyChange } from '../sync/change-feed.ts';
import * as repo from './booking-payments.repository.ts';
import type { Seller } from './payments.access.ts';

/**
 * Refunds to settle (issue 16): a payment at booking owed back that the processor refused to
 * refund (booking-payments.service.ts refundBookingPayment) waits here for staff who sell. They
 * ask again — the payment is owed back once more and its refund job queued, under the same
 * idempotency key, so a refund the processor did make is never made twice — or mark it made
 * outside the platform (cash, a bank transfer). Each is an audit row; the payer's Purchase
 * history follows by replication.
 */
export async function refundsToSettle(db: Db, seller: Seller): Promise<RefundsToSettle> {
  const rows = await repo.refusedRefundsOf(db, seller.orgId);
  const names = await rosterNamesOf(
    db,
    seller.orgId,
    rows.flatMap((row) => [row.payerUserId, row.customerUserId]),
  );
  const nameOf = (userId: string) => names.get(userId)?.name ?? 'A former customer';
  return {
    refunds: rows.map((row) => ({
      id: row.id,
      payerName: nameOf(row.payerUserId),
      customerName: nameOf(row.customerUserId),
      description: row.description,
      amountMinor: row.amountMinor,
      currency: row.currency,
      failureMessage: row.failureMessage,
      paidAt: row.paidAt?.toISOString() ?? null,
      refusedAt: row.updatedAt.toISOString(),
    })),
  };
}

/** The payment, locked, if it is a refused refund of the seller's organisation. */
async function lockRefused(tx: Tx, seller: Seller, id: string) {
  const row = await repo.lockBookingPayment(tx, seller.orgId, id);
  if (!row) throw new NotFound(texts.notFound);
  if (row.status !== 'refund-refused') throw new Conflict(texts.notWaiting);
  return row;
}

/** The payer's devices hear of it, and the audit says who settled it how. */
async function announceSettling(
  tx: Tx,
  seller: Seller,
  row: repo.BookingPaymentRow,
  action: 'booking-refund-retried' | 'booking-refund-marked-refunded',
) {
  await notifyChange(tx, {
    collection: 'booking-payments',
    orgId: row.orgId,
    ownerIds: [row.payerUserId],
  });
  await repo.auditRefundSettling(tx, {
    orgId: row.orgId,
    actorUserId: seller.userId,
    payerUserId: row.payerUserId,
    action,
    paymentId: row.id,
    amountMinor: row.amountMinor,
    impersonatorUserId: seller.impersonatorUserId ?? null,
  });
}

export async function retryRefund(
  db: Db,
  jobs: Pick<JobQueue, 'enqueue'>,
  seller: Seller,
  id: string,
): Promise<{ message: string }> {
  await db.transaction(async (tx) => {
    const row = await lockRefused(tx, seller, id);
    await repo.updateBookingPayment(tx, row.id, { status: 'refund-due', failureMessage: null });
    await announceSettling(tx, seller, row, 'booking-refund-retried');
    // Queued with the change: the job finds it owed back (or the hourly sweep does).
    await jobs.enqueue('booking-refund', { paymentId: row.id }, { tx });
  });
  return { message: texts.retried };
}

export async function markRefundedOutside(
  db: Db,
  seller: Seller,
  id: string,
  now = new Date(),
): Promise<{ message: string }> {
  await db.transaction(async (tx) => {
    const row = await lockRefused(tx, seller, id);
    await repo.updateBookingPayment(tx, row.id, {
      status: 'refunded',
      refundedAt: now,
      failureMessage: `Refunded outside the platform (marked by ${seller.name}).`,
    });
    await announceSettling(tx, seller, row, 'booking-refund-marked-refunded');
  });
  return { message: texts.markedRefunded };
}
