import { useCallback } from 'react';
import { overlapRefusals } from '@platform/schema/time-tracking/time-entry-overlap.rules';
import { timeEntryRuleViolation } from '@platform/schema/time-tracking/time-entry.rules';
import type { TimeEntryDoc } from '@platform/schema/time-tracking/time-entry.zod';
import type { EntryTimes } from '@platform/schema/time-tracking/time-totals.rules';
import {
  savedOfflineMessage,
  timeEntryEditMessages,
} from '@platform/schema/time-tracking/time-tracking.messages';
import { useToast } from '../../../components/toast/toast-context.ts';
import type { AccountDatabase } from '../../../db/database.ts';
import { deleteDocument, saveDocument } from '../../../sync/local-writes.ts';
import { useAccountSync } from '../../../sync/sync-context.tsx';
import { isSyncReachable } from '../../../sync/use-clock-move.ts';
import { awaitVerdict, type Verdict } from '../../../sync/write-verdict.ts';

/** What the entry dialog edits: a new entry for someone, or an existing one. */
export type EntryTarget =
  { kind: 'create'; userId: string } | { kind: 'edit'; entry: TimeEntryDoc };
/** null when done; otherwise why not, to show in the dialog (the rule that refused it). */
export type ChangeOutcome = string | null;

type Texts = { done: string; failed: string };

/**
 * Creates, corrects and deletes entries on this device (DESIGN.md How data flows 6): checked
 * first with the rules the server applies (entry rules, no overlap for one person), then written
 * locally and sent by the replication. Online, the dialog waits for the server's verdict and
 * shows its reason if it refuses; offline, the change waits on the device and says so.
 */
export function useEntryChanges(orgId: string, people: readonly TimeEntryDoc[]) {
  const toast = useToast();
  const { sync, status } = useAccountSync();
  const db: AccountDatabase | null = sync?.db ?? null;

  const settle = useCallback(
    async (id: string, at: Date, texts: Texts): Promise<ChangeOutcome> => {
      const verdict: Verdict = isSyncReachable(status)
        ? await awaitVerdict(db!, 'time-entries', id, at)
        : { kind: 'queued' };
      if (verdict.kind === 'refused') {
        toast.error(texts.failed);
        return verdict.message;
      }
      if (verdict.kind === 'acknowledged') toast.success(texts.done);
      else toast.show(savedOfflineMessage, 'info');
      return null;
    },
    [db, status, toast],
  );

  const save = useCallback(
    async (target: EntryTarget, times: EntryTimes): Promise<ChangeOutcome> => {
      const creating = target.kind === 'create';
      const texts = creating
        ? { done: timeEntryEditMessages.created, failed: timeEntryEditMessages.createFailed }
        : { done: timeEntryEditMessages.updated, failed: timeEntryEditMessages.updateFailed };
      if (!db) return texts.failed;
      const at = new Date();
      const master = target.kind === 'edit' ? target.entry : null;
      const base =
        target.kind === 'edit'
          ? target.entry
          : { id: crypto.randomUUID(), orgId, userId: target.userId };
      const next: TimeEntryDoc = { ...base, ...times, updatedAt: at.toISOString() };
      const refusal =
        timeEntryRuleViolation(next) ?? overlapRefusals([{ next, master }], people)[0]?.message;
      if (refusal) return refusal;
      await saveDocument(db, 'time-entries', next, at);
      return settle(next.id, at, texts);
    },
    [db, orgId, people, settle],
  );

  const remove = useCallback(
    async (entry: TimeEntryDoc): Promise<ChangeOutcome> => {
      const texts = {
        done: timeEntryEditMessages.deleted,
        failed: timeEntryEditMessages.deleteFailed,
      };
      if (!db) return texts.failed;
      const at = new Date();
      await deleteDocument(db, 'time-entries', entry.id, at);
      return settle(entry.id, at, texts);
    },
    [db, settle],
  );

  return { save, remove };
}
