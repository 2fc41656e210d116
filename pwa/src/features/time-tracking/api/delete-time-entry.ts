import {
  deletedAnswerSchema,
  type DeleteTimeEntryInput,
} from '@platform/schema/time-tracking/time-tracking.zod';
import { api } from '../../../lib/api.ts';

/** spec §7 POST /api/time-tracking, action delete-time-entry (with `deleteData`, as §7 names it). */
export async function deleteTimeEntry(orgId: string, entryId: string): Promise<void> {
  await api('/api/time-tracking', {
    json: {
      action: 'delete-time-entry',
      orgId,
      deleteData: { entryId },
    } satisfies DeleteTimeEntryInput,
    schema: deletedAnswerSchema,
  });
}
