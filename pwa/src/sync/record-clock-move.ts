import {
  applyClockAction,
  type ClockAction,
  type ClockState,
} from '@platform/schema/time-tracking/time-clock.rules';
import type { AccountDatabase } from '../db/database.ts';
import { saveDocument } from './local-writes.ts';
import { awaitVerdict, type Verdict } from './write-verdict.ts';

/**
 * One clock move — on the time-tracking page and at the kiosk alike — recorded at the time it
 * happens (DESIGN.md How data flows 5): the §4 state machine on the person's entries as this
 * device has them, then a local write the replication pushes. Resolves once the move is on the
 * device; `verdict` follows: the server's (or `queued` if its answer is slow), offline `queued`.
 */
export async function recordClockMove(
  db: AccountDatabase,
  target: { orgId: string; userId: string },
  state: ClockState,
  action: ClockAction,
  options: { online: boolean; now?: Date },
): Promise<{ ok: true; at: Date; verdict: Promise<Verdict> } | { ok: false; message: string }> {
  const now = options.now ?? new Date();
  const move = applyClockAction(state, action, now, { ...target, newEntryId: crypto.randomUUID() });
  if (!move.ok) return move;
  await saveDocument(db, 'time-entries', move.entry, now);
  const verdict: Promise<Verdict> = options.online
    ? awaitVerdict(db, 'time-entries', move.entry.id, now)
    : Promise.resolve({ kind: 'queued' });
  return { ok: true, at: now, verdict };
}
