import { and, desc, eq, inArray, lt } from 'drizzle-orm';
import { auditLog, bookingPayments } from '@platform/schema/db';
import type { Db, Tx } from '../db/open-database.ts';

export type BookingPaymentRow = typeof bookingPayments.$inferSelect;

/** What a change to payments returns: enough to tell their payers' devices. */
const announced = {
  id: bookingPayments.id,
  orgId: bookingPayments.orgId,
  payerUserId: bookingPayments.payerUserId,
};
type Reader = Db | Tx;

export async function findBookingPayment(db: Reader, orgId: string, id: string) {
  const [row] = await db
    .select()
    .from(bookingPayments)
    .where(and(eq(bookingPayments.orgId, orgId), eq(bookingPayments.id, id)));
  return row ?? null;
}

export async function lockBookingPayment(tx: Tx, orgId: string, id: string) {
  const [row] = await tx
    .select()
    .from(bookingPayments)
    .where(and(eq(bookingPayments.orgId, orgId), eq(bookingPayments.id, id)))
    .for('update');
  return row ?? null;
}

/** A payment by its id alone (the notice job's payload names it). */
export async function findBookingPaymentById(db: Reader, id: string) {
  const [row] = await db.select().from(bookingPayments).where(eq(bookingPayments.id, id));
  return row ?? null;
}

/** A payment by its id alone: for the refund job, whose payload names it. */
export async function lockBookingPaymentById(tx: Tx, id: string) {
  const [row] = await tx
    .select()
    .from(bookingPayments)
    .where(eq(bookingPayments.id, id))
    .for('update');
  return row ?? null;
}

export async function insertBookingPayment(tx: Tx, row: typeof bookingPayments.$inferInsert) {
  await tx.insert(bookingPayments).values(row);
}

export async function updateBookingPayment(
  db: Reader,
  id: string,
  values: Partial<typeof bookingPayments.$inferInsert>,
) {
  await db
    .update(bookingPayments)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(bookingPayments.id, id));
}

/** The latest payment made for a booking, locked: the one its decision may use. */
export async function lockLatestPaymentOf(tx: Tx, orgId: string, bookingId: string) {
  const [row] = await tx
    .select()
    .from(bookingPayments)
    .where(
      and(
        eq(bookingPayments.orgId, orgId),
        eq(bookingPayments.bookingId, bookingId),
        // A payment never taken is not one: only what the processor charged counts.
        inArray(bookingPayments.status, ['paid', 'used', 'refund-due', 'refunded']),
      ),
    )
    .orderBy(desc(bookingPayments.paidAt))
    .limit(1)
    .for('update');
  return row ?? null;
}

/** Marks the bookings' payments in these states as owed back; answers the rows marked. */
export async function markRefundDue(
  tx: Tx,
  orgId: string,
  bookingIds: readonly string[],
  from: ReadonlyArray<'paid' | 'used'>,
) {
  if (bookingIds.length === 0) return [];
  return tx
    .update(bookingPayments)
    .set({ status: 'refund-due', updatedAt: new Date() })
    .where(
      and(
        eq(bookingPayments.orgId, orgId),
        inArray(bookingPayments.bookingId, [...bookingIds]),
        inArray(bookingPayments.status, [...from]),
      ),
    )
    .returning(announced);
}

/** Paid and never used by a booking since `before`: marked owed back, a batch at a time. */
export async function markUnusedRefundDue(tx: Tx, before: Date, limit: number) {
  return tx
    .update(bookingPayments)
    .set({ status: 'refund-due', updatedAt: new Date() })
    .where(
      inArray(
        bookingPayments.id,
        tx
          .select({ id: bookingPayments.id })
          .from(bookingPayments)
          .where(and(eq(bookingPayments.status, 'paid'), lt(bookingPayments.paidAt, before)))
          .limit(limit)
          .for('update', { skipLocked: true }),
      ),
    )
    .returning(announced);
}

/** Every payment owed back (their jobs are asked again: a refund job is harmless twice). */
export async function refundDuePayments(db: Reader, limit: number) {
  return db
    .select({ id: bookingPayments.id })
    .from(bookingPayments)
    .where(eq(bookingPayments.status, 'refund-due'))
    .limit(limit);
}

/** Attempts charging since before `before`: claimed (their lease renewed) to be asked again. */
export async function claimStaleCharging(tx: Tx, before: Date, now: Date, limit: number) {
  return tx
    .update(bookingPayments)
    .set({ chargingSince: now })
    .where(
      inArray(
        bookingPayments.id,
        tx
          .select({ id: bookingPayments.id })
          .from(bookingPayments)
          .where(
            and(eq(bookingPayments.status, 'charging'), lt(bookingPayments.chargingSince, before)),
          )
          .limit(limit)
          .for('update', { skipLocked: true }),
      ),
    )
    .returning();
}

export async function markRefundDueById(tx: Tx, id: string, from: ReadonlyArray<'paid' | 'used'>) {
  return tx
    .update(bookingPayments)
    .set({ status: 'refund-due', updatedAt: new Date() })
    .where(and(eq(bookingPayments.id, id), inArray(bookingPayments.status, [...from])))
    .returning(announced);
}

/** Refunds the processor refused in an organisation, the newest first (staff settle them). */
export async function refusedRefundsOf(db: Reader, orgId: string) {
  return db
    .select()
    .from(bookingPayments)
    .where(and(eq(bookingPayments.orgId, orgId), eq(bookingPayments.status, 'refund-refused')))
    .orderBy(desc(bookingPayments.updatedAt), desc(bookingPayments.id))
    .limit(500);
}

/** Who settled a refused refund, and how: an audit row. */
export async function auditRefundSettling(
  tx: Tx,
  entry: {
    orgId: string;
    actorUserId: string;
    payerUserId: string;
    action: 'booking-refund-retried' | 'booking-refund-marked-refunded';
    paymentId: string;
    amountMinor: number;
    impersonatorUserId: string | null;
  },
) {
  await tx.insert(auditLog).values({
    orgId: entry.orgId,
    actorUserId: entry.actorUserId,
    subjectUserId: entry.payerUserId,
    action: entry.action,
    detail: {
      paymentId: entry.paymentId,
      amountMinor: entry.amountMinor,
      impersonatorUserId: entry.impersonatorUserId,
    },
  });
}
