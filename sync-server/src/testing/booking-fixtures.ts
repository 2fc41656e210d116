import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { bookings, classOccurrences } from '@platform/schema/db';
import type { Db } from '../db/open-database.ts';

/**
 * A booked place on a class time, written directly with the class time's count (the booking
 * write path has its own tests): for tests that need someone on a class whose time a request
 * could no longer reach — one already running, or one of years ago.
 */
export async function insertBookedPlace(
  db: Db,
  input: {
    orgId: string;
    occurrenceId: string;
    customerUserId: string;
    customerName?: string;
    /** When the booking was asked for and decided; now unless told. */
    at?: Date;
  },
) {
  const at = input.at ?? new Date();
  const [row] = await db
    .insert(bookings)
    .values({
      id: randomUUID(),
      orgId: input.orgId,
      customerUserId: input.customerUserId,
      customerName: input.customerName ?? '',
      occurrenceId: input.occurrenceId,
      status: 'booked',
      appointment: null,
      joinWaitlist: false,
      paidWith: 'free',
      requestedAt: at,
      decidedAt: at,
      updatedAt: at,
    })
    .returning();
  await db
    .update(classOccurrences)
    .set({ bookedCount: sql`${classOccurrences.bookedCount} + 1` })
    .where(eq(classOccurrences.id, input.occurrenceId));
  return row!;
}
