import { bookings } from '@platform/schema/db';
import type { BookingDoc } from '@platform/schema/bookings/booking.zod';
import type { Tx } from '../db/open-database.ts';
import type { WireDoc } from '../sync/collection-definition.ts';

export type BookingRow = typeof bookings.$inferSelect;

export function bookingToDoc(row: BookingRow): WireDoc<BookingDoc> {
  return {
    id: row.id,
    orgId: row.orgId,
    customerUserId: row.customerUserId,
    occurrenceId: row.occurrenceId,
    status: row.status,
    updatedAt: row.updatedAt.toISOString(),
    _deleted: row.deleted,
  };
}

export async function upsertBooking(tx: Tx, doc: WireDoc<BookingDoc>): Promise<void> {
  const values = {
    orgId: doc.orgId,
    customerUserId: doc.customerUserId,
    occurrenceId: doc.occurrenceId,
    status: doc.status,
    updatedAt: new Date(doc.updatedAt),
    deleted: doc._deleted,
  };
  await tx.insert(bookings).values({ id: doc.id, ...values }).onConflictDoUpdate({ target: bookings.id, set: values });
}
