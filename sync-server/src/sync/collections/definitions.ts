import { sql, type SQL } from 'drizzle-orm';
import {
  appointmentTypes,
  bookingPayments,
  bookings,
  classOccurrences,
  customerNotes,
  invoices,
  orgBranding,
  products,
  punchCardCredits,
  rosterItems,
  scheduleClasses,
  staffAvailability,
  subscriptions,
  timeEntries,
} from '@platform/schema/db';
import { replicatedCollections, type CollectionName } from '@platform/schema/sync/collections';
import { accessTo, CURRENT_BOOKINGS_MS } from '@platform/schema/sync/access.rules';
import { customerNoteToDoc, writeCustomerNotes } from '../../crm/customer-notes.sync.ts';
import { orgBrandingToDoc } from '../../branding/branding.service.ts';
import { bookingToDoc, writeBookings } from '../../bookings/bookings.service.ts';
import { Forbidden } from '../../plugins/domain-errors.ts';
import { rosterItemToDoc, writeRosterItems } from '../../crm/roster.service.ts';
import {
  timeEntryToDoc,
  timeEntryWriteGroup,
  writeTimeEntries,
} from '../../time-tracking/time-entries.service.ts';
import { limitToClockMoves } from '../../kiosk/kiosk-writes.ts';
import { limitToCheckIns } from '../../kiosk/kiosk-checkins.ts';
import {
  bookingPaymentToDoc,
  creditToDoc,
  invoiceToDoc,
  productToDoc,
  purchaseToDoc,
} from '../../payments/payments.sync.ts';
import { classToDoc, occurrenceToDoc } from '../../schedule/schedule.service.ts';
import { appointmentTypeToDoc, availabilityToDoc } from '../../schedule/appointments.service.ts';
import type { Actor, Scope } from '../actor.ts';
import type { AnyReplicatedCollection, RuleError } from '../collection-definition.ts';

/**
 * The shared rule (schema/src/sync/access.rules.ts) turned into a query scope. `current`: the
 * collection's rows that are "current" (access `currentOnly`); a collection without one is
 * never replicated to a viewer the rule limits so (fail closed).
 */
function scopeOf(name: CollectionName, current?: SQL) {
  return (actor: Actor): Scope => {
    const access = accessTo(name, actor);
    if (!access || !actor.orgId) throw new Forbidden('You may not replicate this collection.');
    if (access.currentOnly && !current)
      throw new Forbidden('You may not replicate this collection.');
    const ownerIds =
      access.reach === 'all' ? null : access.reach === 'own' ? [actor.userId] : actor.familyUserIds;
    return {
      orgId: actor.orgId,
      ownerIds,
      writable: access.writable,
      ...(access.currentOnly ? { rowFilter: current } : {}),
    };
  };
}

/**
 * Current bookings (a kiosk's, access `currentOnly`): those of a class time of their own
 * organisation that ended less than CURRENT_BOOKINGS_MS ago or is still to come, by the
 * database's clock — a kiosk never downloads years of history.
 *
 * Why a filter is safe with the (txid, id) checkpoint: a pull passes a row out of the filter
 * and moves the checkpoint beyond it for good, so a row that ENTERED the filter later without
 * being written again would never reach the device. Here a booking only ever LEAVES it: time
 * passing only moves the bound forward, and a class time that has ended is never moved again
 * (schedule.service.ts refuses to edit one; a series edit moves only those not ended), so one
 * never comes back into the window. A booking written again gets a new txid and is judged
 * afresh. The one way in without a new txid is a class time created after its booking under
 * the same id — only an appointment asked for by id after an earlier request under that id was
 * refused: such a booking is `refused`, which a kiosk never acts on.
 */
const currentBookings = sql`exists (
  select 1 from ${classOccurrences}
  where ${classOccurrences.id}::text = ${bookings.occurrenceId}
    and ${classOccurrences.orgId} = ${bookings.orgId}
    and ${classOccurrences.endsAt} > now() - ${`${CURRENT_BOOKINGS_MS} milliseconds`}::interval
)`;

/**
 * The write of a collection no device may write (`writable: false` for every viewer): the
 * engine refuses such pushes before this; should it ever be reached, nothing is stored.
 */
const readOnly =
  (message: string) =>
  async (_tx: unknown, _actor: unknown, changes: Array<{ next: { id: string } }>) =>
    changes.map((change): RuleError => ({ id: change.next.id, message }));

export const collectionDefinitions: Record<CollectionName, AnyReplicatedCollection> = {
  roster: {
    name: 'roster',
    docSchema: replicatedCollections.roster.schema,
    table: rosterItems,
    ownerColumn: rosterItems.userId,
    ownerOf: (doc: { athlete: { id: string } }) => doc.athlete.id,
    scopeFor: scopeOf('roster'),
    toDoc: rosterItemToDoc,
    writeBatch: writeRosterItems,
  },
  'time-entries': {
    name: 'time-entries',
    docSchema: replicatedCollections['time-entries'].schema,
    table: timeEntries,
    ownerColumn: timeEntries.userId,
    ownerOf: (doc: { userId: string }) => doc.userId,
    scopeFor: scopeOf('time-entries'),
    toDoc: timeEntryToDoc,
    writeBatch: limitToClockMoves(writeTimeEntries),
    serialiseOn: timeEntryWriteGroup,
  },
  bookings: {
    name: 'bookings',
    docSchema: replicatedCollections.bookings.schema,
    table: bookings,
    ownerColumn: bookings.customerUserId,
    ownerOf: (doc: { customerUserId: string }) => doc.customerUserId,
    scopeFor: scopeOf('bookings', currentBookings),
    toDoc: bookingToDoc,
    writeBatch: limitToCheckIns(writeBookings),
  },
  'org-branding': {
    name: 'org-branding',
    docSchema: replicatedCollections['org-branding'].schema,
    table: orgBranding,
    // Organisation-wide (reach 'all'): the owner column is never consulted.
    ownerColumn: orgBranding.orgId,
    ownerOf: (doc: { orgId: string }) => doc.orgId,
    scopeFor: scopeOf('org-branding'),
    toDoc: orgBrandingToDoc,
    // Read-only on every device (writable: false): the engine refuses pushes before this.
    writeBatch: async (_tx, _actor, changes) =>
      changes.map((change: { next: { id: string } }) => ({
        id: change.next.id,
        message: 'Branding is changed in the branding settings.',
      })),
  },
  'customer-notes': {
    name: 'customer-notes',
    docSchema: replicatedCollections['customer-notes'].schema,
    table: customerNotes,
    ownerColumn: customerNotes.userId,
    ownerOf: (doc: { userId: string }) => doc.userId,
    scopeFor: scopeOf('customer-notes'),
    toDoc: customerNoteToDoc,
    writeBatch: writeCustomerNotes,
  },
  products: {
    name: 'products',
    docSchema: replicatedCollections.products.schema,
    table: products,
    // Organisation-wide (reach 'all'): the owner column is never consulted.
    ownerColumn: products.orgId,
    ownerOf: (doc: { orgId: string }) => doc.orgId,
    scopeFor: scopeOf('products'),
    toDoc: productToDoc,
    writeBatch: readOnly('Products are changed in Packages.'),
  },
  purchases: {
    name: 'purchases',
    docSchema: replicatedCollections.purchases.schema,
    table: subscriptions,
    ownerColumn: subscriptions.customerUserId,
    ownerOf: (doc: { customerUserId: string }) => doc.customerUserId,
    scopeFor: scopeOf('purchases'),
    toDoc: purchaseToDoc,
    writeBatch: readOnly('Purchases change only through a charge or a cancellation.'),
  },
  invoices: {
    name: 'invoices',
    docSchema: replicatedCollections.invoices.schema,
    table: invoices,
    ownerColumn: invoices.customerUserId,
    ownerOf: (doc: { customerUserId: string }) => doc.customerUserId,
    scopeFor: scopeOf('invoices'),
    toDoc: invoiceToDoc,
    writeBatch: readOnly('Invoices are written by charges.'),
  },
  credits: {
    name: 'credits',
    docSchema: replicatedCollections.credits.schema,
    table: punchCardCredits,
    ownerColumn: punchCardCredits.customerUserId,
    ownerOf: (doc: { customerUserId: string }) => doc.customerUserId,
    scopeFor: scopeOf('credits'),
    toDoc: creditToDoc,
    writeBatch: readOnly('Credits change only through a purchase, an import or a booking.'),
  },
  'booking-payments': {
    name: 'booking-payments',
    docSchema: replicatedCollections['booking-payments'].schema,
    table: bookingPayments,
    ownerColumn: bookingPayments.payerUserId,
    ownerOf: (doc: { payerUserId: string }) => doc.payerUserId,
    scopeFor: scopeOf('booking-payments'),
    toDoc: bookingPaymentToDoc,
    writeBatch: readOnly('Payments at booking are made when booking.'),
  },
  classes: {
    name: 'classes',
    docSchema: replicatedCollections.classes.schema,
    table: scheduleClasses,
    // Organisation-wide (reach 'all'): the owner column is never consulted.
    ownerColumn: scheduleClasses.orgId,
    ownerOf: (doc: { orgId: string }) => doc.orgId,
    scopeFor: scopeOf('classes'),
    toDoc: classToDoc,
    writeBatch: readOnly('Classes are changed in the calendar.'),
  },
  occurrences: {
    name: 'occurrences',
    docSchema: replicatedCollections.occurrences.schema,
    table: classOccurrences,
    ownerColumn: classOccurrences.orgId,
    ownerOf: (doc: { orgId: string }) => doc.orgId,
    scopeFor: scopeOf('occurrences'),
    toDoc: occurrenceToDoc,
    writeBatch: readOnly('Class times are changed in the calendar.'),
  },
  'appointment-types': {
    name: 'appointment-types',
    docSchema: replicatedCollections['appointment-types'].schema,
    table: appointmentTypes,
    ownerColumn: appointmentTypes.orgId,
    ownerOf: (doc: { orgId: string }) => doc.orgId,
    scopeFor: scopeOf('appointment-types'),
    toDoc: appointmentTypeToDoc,
    writeBatch: readOnly('Appointment types are changed in the calendar.'),
  },
  availability: {
    name: 'availability',
    docSchema: replicatedCollections.availability.schema,
    table: staffAvailability,
    ownerColumn: staffAvailability.orgId,
    ownerOf: (doc: { orgId: string }) => doc.orgId,
    scopeFor: scopeOf('availability'),
    toDoc: availabilityToDoc,
    writeBatch: readOnly('Staff hours are changed in the calendar.'),
  },
};
