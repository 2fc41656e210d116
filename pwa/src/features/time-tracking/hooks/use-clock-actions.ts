import { useState } from 'react';
import {
  applyClockAction,
  type ClockAction,
  type ClockState,
} from '@platform/schema/time-tracking/time-clock.rules';
import {
  clockFailureMessages,
  clockSuccessMessages,
  savedOfflineMessage,
} from '@platform/schema/time-tracking/time-tracking.messages';
import { useToast } from '../../../components/toast/toast-context.ts';
import type { AccountDatabase } from '../../../db/database.ts';
import { NetworkError } from '../../../lib/api.ts';
import { saveDocument } from '../../../sync/local-writes.ts';
import { runClockAction } from '../api/run-clock-action.ts';

type Options = {
  orgId: string;
  userId: string;
  /** The clock as this device has it, for a move made offline. */
  local: { db: AccountDatabase | null; state: ClockState };
  onAnswer: (action: ClockAction, state: ClockState) => void;
  onSavedOffline: () => void;
};

/** Runs one clock move at a time: on the server, or, when it cannot be reached, on this device. */
export function useClockActions({ orgId, userId, local, onAnswer, onSavedOffline }: Options) {
  const toast = useToast();
  const [pending, setPending] = useState<ClockAction | null>(null);

  async function saveLocally(action: ClockAction): Promise<void> {
    const move = applyClockAction(local.state, action, new Date(), {
      orgId,
      userId,
      newEntryId: crypto.randomUUID(),
    });
    if (!local.db || !move.ok) {
      toast.error(clockFailureMessages[action]);
      return;
    }
    // The sync engine pushes it once back online; the server checks it with the same rules.
    await saveDocument(local.db, 'time-entries', move.entry);
    toast.show(savedOfflineMessage, 'info');
    onSavedOffline();
  }

  async function run(action: ClockAction): Promise<void> {
    if (pending) return;
    setPending(action);
    try {
      const state = await runClockAction({ action, orgId });
      toast.success(clockSuccessMessages[action]);
      onAnswer(action, state);
    } catch (error) {
      if (error instanceof NetworkError) {
        await saveLocally(action).catch(() => toast.error(clockFailureMessages[action]));
      } else {
        toast.error(clockFailureMessages[action]);
      }
    } finally {
      setPending(null);
    }
  }

  return { pending, run };
}
