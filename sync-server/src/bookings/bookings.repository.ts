import { bookings } from '@platform/schema/db';
import type { BookingDoc } from '@platform/schema/bookings/booking.zod';
import type { Tx } from '../db/open-database.ts';
import { excludedSet } from '../db/upsert.ts';
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

/** Stores every document in one statement (inserting new ones, replacing known ones). */
export async function upsertBookings(tx: Tx, docs: Array<WireDoc<BookingDoc>>): Promise<void> {
  if (docs.length === 0) return;
  await tx
    .insert(bookings)
    .values(
      docs.map((doc) => ({
        id: doc.id,
        orgId: doc.orgId,
        customerUserId: doc.customerUserId,
        occurrenceId: doc.occurrenceId,
        status: doc.status,
        updatedAt: new Date(doc.updatedAt),
        deleted: doc._deleted,
      })),
    )
    // A document never changes organisation: org_id is not among the columns an update sets.
    .onConflictDoUpdate({
      target: bookings.id,
      set: excludedSet(bookings, ['customerUserId', 'occurrenceId', 'status', 'updatedAt', 'deleted']),
    });
}
