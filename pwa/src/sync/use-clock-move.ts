import { useState } from 'react';
import type { ClockAction, ClockState } from '@platform/schema/time-tracking/time-clock.rules';
import {
  clockFailureMessages,
  clockSuccessMessages,
  savedOfflineMessage,
} from '@platform/schema/time-tracking/time-tracking.messages';
import { useToast } from '../components/toast/toast-context.ts';
import type { AccountDatabase } from '../db/database.ts';
import { recordClockMove } from './record-clock-move.ts';
import type { SyncStatus } from './replication.ts';

/** Whether a write made now is expected to reach the server at once. */
export const isSyncReachable = (status: SyncStatus | null) =>
  status !== null &&
  (status.state === 'online' || status.state === 'syncing' || status.state === 'standby');

/**
 * One clock move at a time, the same on the time-tracking page and at the kiosk: written on the
 * device at once (the screen's live query shows it), then the §8 toast when the server
 * acknowledged it — or its failure toast when the server refused it, or "saved on this device"
 * while it waits to be sent. Answers the time the move was recorded at on the device (null when
 * it was not); the toast follows without holding the buttons.
 */
export function useClockMove(db: AccountDatabase | null, status: SyncStatus | null) {
  const toast = useToast();
  const [pending, setPending] = useState<ClockAction | null>(null);

  async function run(
    target: { orgId: string; userId: string },
    state: ClockState,
    action: ClockAction,
  ): Promise<Date | null> {
    if (pending || !db) {
      if (!db) toast.error(clockFailureMessages[action]);
      return null;
    }
    setPending(action);
    try {
      const result = await recordClockMove(db, target, state, action, {
        online: isSyncReachable(status),
      });
      if (!result.ok) {
        toast.error(clockFailureMessages[action]);
        return null;
      }
      void result.verdict.then((verdict) => {
        if (verdict.kind === 'acknowledged') toast.success(clockSuccessMessages[action]);
        else if (verdict.kind === 'refused')
          toast.error(`${clockFailureMessages[action]} ${verdict.message}`);
        else toast.show(savedOfflineMessage, 'info');
      });
      return result.at;
    } catch (error) {
      console.error('clock move failed', error);
      toast.error(clockFailureMessages[action]);
      return null;
    } finally {
      setPending(null);
    }
  }

  return { pending, run };
}
