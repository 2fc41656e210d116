import { useCallback } from 'react';
import type { TimeEntryDoc } from '@platform/schema/time-tracking/time-entry.zod';
import type { EntryTimes } from '@platform/schema/time-tracking/time-totals.rules';
import { timeEntryEditMessages } from '@platform/schema/time-tracking/time-tracking.messages';
import { useToast } from '../../../components/toast/toast-context.ts';
import { ApiError, NetworkError } from '../../../lib/api.ts';
import { deleteTimeEntry } from '../api/delete-time-entry.ts';
import { createTimeEntry, updateTimeEntry } from '../api/save-time-entry.ts';

/** What the entry dialog edits: a new entry for someone, or an existing one. */
export type EntryTarget =
  { kind: 'create'; userId: string } | { kind: 'edit'; entry: TimeEntryDoc };
/** null when done; otherwise why not, to show in the dialog (the server's reason, e.g. an overlap). */
export type ChangeOutcome = string | null;

/** Why a change failed, in words for the dialog: the rule the server named, or being offline. */
function reasonOf(error: unknown, fallback: string): string {
  if (error instanceof NetworkError) return timeEntryEditMessages.offline;
  if (error instanceof ApiError && error.status < 500 && error.message) return error.message;
  return fallback;
}

/** Creates, corrects and deletes entries through spec §7's actions, with a toast for each outcome. */
export function useEntryChanges(orgId: string, onChanged: () => void) {
  const toast = useToast();

  const save = useCallback(
    async (target: EntryTarget, times: EntryTimes): Promise<ChangeOutcome> => {
      const creating = target.kind === 'create';
      try {
        if (creating) await createTimeEntry(orgId, target.userId, times);
        else await updateTimeEntry(orgId, target.entry.id, times);
      } catch (error) {
        const failure = creating
          ? timeEntryEditMessages.createFailed
          : timeEntryEditMessages.updateFailed;
        toast.error(failure);
        return reasonOf(error, failure);
      }
      toast.success(creating ? timeEntryEditMessages.created : timeEntryEditMessages.updated);
      onChanged();
      return null;
    },
    [orgId, onChanged, toast],
  );

  const remove = useCallback(
    async (entry: TimeEntryDoc): Promise<ChangeOutcome> => {
      try {
        await deleteTimeEntry(orgId, entry.id);
      } catch (error) {
        toast.error(timeEntryEditMessages.deleteFailed);
        return reasonOf(error, timeEntryEditMessages.deleteFailed);
      }
      toast.success(timeEntryEditMessages.deleted);
      onChanged();
      return null;
    },
    [orgId, onChanged, toast],
  );

  return { save, remove };
}
