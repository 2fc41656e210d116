import {
  appointmentTypes,
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
import { accessTo } from '@platform/schema/sync/access.rules';
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
import {
  creditToDoc,
  invoiceToDoc,
  productToDoc,
  purchaseToDoc,
} from '../../payments/payments.sync.ts';
import { classToDoc, occurrenceToDoc } from '../../schedule/schedule.service.ts';
import { appointmentTypeToDoc, availabilityToDoc } from '../../schedule/appointments.service.ts';
import type { Actor, Scope } from '../actor.ts';
import type { AnyReplicatedCollection, RuleError } from '../collection-definition.ts';

/** The shared rule (schema/src/sync/access.rules.ts) turned into a query scope. */
function scopeOf(name: CollectionName) {
  return (actor: Actor): Scope => {
    const access = accessTo(name, actor);
    if (!access || !actor.orgId) throw new Forbidden('You may not replicate this collection.');
    const ownerIds =
      access.reach === 'all' ? null : access.reach === 'own' ? [actor.userId] : actor.familyUserIds;
    return { orgId: actor.orgId, ownerIds, writable: access.writable };
  };
}

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
    scopeFor: scopeOf('bookings'),
    toDoc: bookingToDoc,
    writeBatch: writeBookings,
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
