import type { z } from 'zod';
import { bookingPaymentDocSchema } from '../bookings/booking-pay.zod.ts';
import { bookingDocSchema } from '../bookings/booking.zod.ts';
import { orgBrandingDocSchema } from '../branding/branding.zod.ts';
import { customerNoteDocSchema } from '../crm/customer-note.zod.ts';
import { creditDocSchema } from '../payments/credit-doc.zod.ts';
import { productDocSchema } from '../payments/product-doc.zod.ts';
import { invoiceDocSchema, purchaseDocSchema } from '../payments/purchase-docs.zod.ts';
import { rosterItemDocSchema } from '../roster/roster-item.zod.ts';
import { appointmentTypeDocSchema, availabilityDocSchema } from '../schedule/appointments.zod.ts';
import { classDocSchema, occurrenceDocSchema } from '../schedule/schedule.zod.ts';
import { timeEntryDocSchema } from '../time-tracking/time-entry.zod.ts';

/**
 * The replicated collections, one entry each: adding a collection is adding an entry here, a
 * table, and a server definition in sync-server/src/sync/collections/. `version` is the local
 * schema version; bump it with a migration strategy on the client when a shape changes
 * (pwa/src/db/migrations.ts).
 */
export const replicatedCollections = {
  roster: { schema: rosterItemDocSchema, version: 0, indexes: ['updatedAt'] },
  'time-entries': { schema: timeEntryDocSchema, version: 0, indexes: ['userId', 'startTime'] },
  // v1: verdicts, waitlist, payment and check-in (decision 0066), converted on the device.
  bookings: { schema: bookingDocSchema, version: 1, indexes: ['customerUserId', 'occurrenceId'] },
  'org-branding': { schema: orgBrandingDocSchema, version: 0, indexes: [] },
  'customer-notes': { schema: customerNoteDocSchema, version: 0, indexes: ['userId'] },
  // Read-only on every device (decision 0058): the catalogue and what was bought.
  products: { schema: productDocSchema, version: 0, indexes: [] },
  // v1: the card on file (decision 0064). A read-only collection's new shape is pulled again
  // from the start, not converted on the device (pwa/src/db/migrations.ts).
  // v2: paid outside the platform, and the agreed end (decision 0073).
  purchases: { schema: purchaseDocSchema, version: 2, indexes: ['customerUserId'] },
  invoices: { schema: invoiceDocSchema, version: 0, indexes: ['customerUserId'] },
  // Punch-card credits, a ledger read-only on devices (decision 0062).
  credits: { schema: creditDocSchema, version: 0, indexes: ['customerUserId'] },
  // The schedule, read-only on every member's device (decision 0066).
  classes: { schema: classDocSchema, version: 0, indexes: [] },
  // v1: booked appointments are class times too (no series, a type instead).
  occurrences: { schema: occurrenceDocSchema, version: 1, indexes: ['startsAt'] },
  // Appointment types and staff hours: customers' devices find free slots offline.
  'appointment-types': { schema: appointmentTypeDocSchema, version: 0, indexes: [] },
  availability: { schema: availabilityDocSchema, version: 0, indexes: ['userId'] },
  // Places paid by card at booking: the payer's receipts and refunds (decision 0070).
  'booking-payments': { schema: bookingPaymentDocSchema, version: 0, indexes: ['payerUserId'] },
} as const satisfies Record<
  string,
  { schema: z.ZodObject; version: number; indexes: readonly string[] }
>;

export type CollectionName = keyof typeof replicatedCollections;
/** The document type of a replicated collection, from its zod schema. */
export type DocOf<N extends CollectionName> = z.infer<(typeof replicatedCollections)[N]['schema']>;
export const collectionNames = Object.keys(replicatedCollections) as CollectionName[];
/** Own keys only: `in` would also say yes to 'constructor', '__proto__', 'toString'… */
export const isCollectionName = (name: string): name is CollectionName =>
  Object.hasOwn(replicatedCollections, name);
