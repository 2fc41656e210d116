import type { MigrationStrategies } from 'rxdb/plugins/core';
import type { CollectionName } from '@platform/schema/sync/collections';

/** A document of a read-only collection, when its shape changes: pulled again, not converted. */
const pullAgain = () => null;

/**
 * How the documents already on a device meet a collection's new local version (its `version`
 * in schema/src/sync/collections.ts; RxDB wants one strategy per version). A read-only
 * collection's documents are the server's: they are dropped and pulled again in the new shape —
 * its replication identifier names the version (`replicationIdentifierOf`), so that pull starts
 * from the beginning instead of the old checkpoint, past every row already on the device. The
 * device shows none of them until that pull (decision 0064). A writable collection needs a
 * real conversion instead: its unsent changes are the person's.
 */
export const migrationStrategies: Record<CollectionName, MigrationStrategies> = {
  roster: {},
  'time-entries': {},
  // v1: verdicts, waitlist, payment and check-in. Writable, so converted: a booking made
  // before was a place taken.
  bookings: {
    1: (doc: Record<string, unknown>) => ({
      ...doc,
      customerName: '',
      appointment: null,
      joinWaitlist: false,
      paidWith: null,
      refusal: null,
      requestedAt: doc.updatedAt,
      decidedAt: doc.updatedAt,
      checkedInAt: null,
    }),
  },
  'org-branding': {},
  'customer-notes': {},
  products: {},
  // v1: the card on file; v2: paid outside the platform, and the agreed end.
  purchases: { 1: pullAgain, 2: pullAgain },
  invoices: {},
  credits: {},
  classes: {},
  // v1: appointments among the class times.
  occurrences: { 1: pullAgain },
  'appointment-types': {},
  availability: {},
  'booking-payments': {},
};
