import {
  applyClockAction,
  type ClockAction,
  type ClockState,
} from '@platform/schema/time-tracking/time-clock.rules';
import type { AccountDatabase } from '../../db/database.ts';
import { saveDocument } from '../../sync/local-writes.ts';

/**
 * One clock move at the kiosk, recorded at the time it happens (DESIGN.md How data flows 5):
 * the §4 state machine on the person's entries as this device has them, then a local write
 * the replication pushes — at once when online, when the network returns otherwise.
 */
export async function recordClockMove(
  db: AccountDatabase,
  target: { orgId: string; userId: string },
  state: ClockState,
  action: ClockAction,
  now = new Date(),
): Promise<{ ok: true } | { ok: false; message: string }> {
  const move = applyClockAction(state, action, now, { ...target, newEntryId: crypto.randomUUID() });
  if (!move.ok) return move;
  await saveDocument(db, 'time-entries', move.entry, now);
  return { ok: true };
}
