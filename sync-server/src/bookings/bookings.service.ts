import { and, eq } from 'drizzle-orm';
import { memberships } from '@platform/schema/db';
import type { BookingDoc } from '@platform/schema/bookings/booking.zod';
import type { Tx } from '../db/open-database.ts';
import { RuleBroken } from '../plugins/domain-errors.ts';
import type { Actor } from '../sync/actor.ts';
import type { WireDoc } from '../sync/collection-definition.ts';
import { upsertBooking } from './bookings.repository.ts';

export const bookingMessages = {
  notACustomer: 'Bookings can only be made for customers of this organization.',
  customerStatus: 'Customers can book or cancel; attendance is recorded by staff.',
  cannotMove: 'A booking cannot be moved to another person or class; cancel it and book again.',
  cannotDelete: 'Cancel a booking instead of deleting it.',
} as const;

/** The one write path for bookings (the calendar issue adds occurrences and capacity). */
export async function writeBooking(tx: Tx, actor: Actor, next: WireDoc<BookingDoc>, master: WireDoc<BookingDoc> | null) {
  const isCustomer = actor.view === 'customer';
  if (master && (master.customerUserId !== next.customerUserId || master.occurrenceId !== next.occurrenceId)) {
    throw new RuleBroken(bookingMessages.cannotMove);
  }
  if (isCustomer && next._deleted) throw new RuleBroken(bookingMessages.cannotDelete);
  if (isCustomer && next.status !== 'booked' && next.status !== 'cancelled') throw new RuleBroken(bookingMessages.customerStatus);
  if (!master) {
    const [customer] = await tx
      .select({ id: memberships.id })
      .from(memberships)
      .where(and(eq(memberships.orgId, next.orgId), eq(memberships.userId, next.customerUserId), eq(memberships.kind, 'customer')));
    if (!customer) throw new RuleBroken(bookingMessages.notACustomer);
  }
  await upsertBooking(tx, next);
}
