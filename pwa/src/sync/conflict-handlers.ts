import type { RxConflictHandler, WithDeleted } from 'rxdb/plugins/core';
import { deepEqual } from 'rxdb/plugins/utils';
import type { CollectionName, DocOf } from '@platform/schema/sync/collections';
import { mergeBookings } from '@platform/schema/bookings/booking.conflict';
import { mergeRosterItems } from '@platform/schema/roster/roster-item.conflict';
import { mergeTimeEntries } from '@platform/schema/time-tracking/time-entry.conflict';

type Merge<D> = (
  master: WithDeleted<D>,
  local: WithDeleted<D>,
  assumed: WithDeleted<D> | undefined,
) => WithDeleted<D>;

// The rules live in schema/ beside each document type and are written down in
// docs/decisions/0005-replication.md.
const merges: { [N in CollectionName]: Merge<DocOf<N>> } = {
  roster: mergeRosterItems,
  'time-entries': mergeTimeEntries,
  bookings: mergeBookings,
  // Read-only on devices: the organisation's branding as the server has it.
  'org-branding': (master) => master,
  // Notes are never changed once written (decision 0013): the server's copy is the note.
  'customer-notes': (master) => master,
  // Read-only on devices (decision 0058): the catalogue and purchases as the server has them.
  products: (master) => master,
  purchases: (master) => master,
  invoices: (master) => master,
  // A ledger, read-only on devices (decision 0062).
  credits: (master) => master,
  // The schedule, read-only on devices (decision 0066).
  classes: (master) => master,
  occurrences: (master) => master,
  'appointment-types': (master) => master,
  availability: (master) => master,
  'booking-payments': (master) => master,
};

/**
 * The conflict handler of one collection. Documents the server refused (422) are not merged:
 * the master is taken, and what the device had is kept in the rejections list instead.
 */
export function conflictHandlerFor<N extends CollectionName>(
  name: N,
  refused: Set<string>,
): RxConflictHandler<DocOf<N>> {
  const merge: Merge<DocOf<N>> = merges[name];
  return {
    // Key order differs after a round trip through jsonb; compare values, not strings.
    isEqual: (a, b) => deepEqual(a, b),
    resolve: async ({ realMasterState, newDocumentState, assumedMasterState }) => {
      if (refused.delete(realMasterState.id)) return realMasterState;
      return merge(realMasterState, newDocumentState, assumedMasterState);
    },
  };
}
