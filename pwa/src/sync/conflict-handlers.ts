import type { RxConflictHandler } from 'rxdb/plugins/core';
import { deepEqual } from 'rxdb/plugins/utils';
import type { CollectionName } from '@platform/schema/sync/collections';
import { mergeBookings } from '@platform/schema/bookings/booking.conflict';
import { mergeRosterItems } from '@platform/schema/roster/roster-item.conflict';
import { mergeTimeEntries } from '@platform/schema/time-tracking/time-entry.conflict';
import type { Replicated } from '@platform/schema/sync/conflict.rules';
import type { Doc } from '../db/database.ts';

type Merge = (
  master: Replicated<Doc>,
  local: Replicated<Doc>,
  assumed: Replicated<Doc> | undefined,
) => Replicated<Doc>;

// The rules live in schema/ beside each document type and are written down in
// docs/decisions/0005-replication.md. The casts bridge RxDB's generic WithDeleted type.
const merges: Record<CollectionName, Merge> = {
  roster: mergeRosterItems as unknown as Merge,
  'time-entries': mergeTimeEntries as unknown as Merge,
  bookings: mergeBookings as unknown as Merge,
  // Read-only on devices: the organisation's branding as the server has it.
  'org-branding': (master) => master,
  // Notes are never changed once written (decision 0013): the server's copy is the note.
  'customer-notes': (master) => master,
};

/**
 * The conflict handler of one collection. Documents the server refused (422) are not merged:
 * the master is taken, and what the device had is kept in the rejections list instead.
 */
export function conflictHandlerFor(
  name: CollectionName,
  refused: Set<string>,
): RxConflictHandler<Doc> {
  return {
    // Key order differs after a round trip through jsonb; compare values, not strings.
    isEqual: (a, b) => deepEqual(a, b),
    resolve: async ({ realMasterState, newDocumentState, assumedMasterState }) => {
      if (refused.delete(realMasterState.id)) return realMasterState;
      return merges[name](
        realMasterState as Replicated<Doc>,
        newDocumentState as Replicated<Doc>,
        assumedMasterState as Replicated<Doc> | undefined,
      );
    },
  };
}
