import { accessTo } from '@platform/schema/sync/access.rules';
import { kioskMessages } from '@platform/schema/kiosk/kiosk.messages';
import { kioskChangeRefusal } from '@platform/schema/kiosk/kiosk-push.rules';
import type { TimeEntryDoc } from '@platform/schema/time-tracking/time-entry.zod';
import type { Tx } from '../db/open-database.ts';
import type { Actor } from '../sync/actor.ts';
import type { Change, RuleError } from '../sync/collection-definition.ts';
import { kioskStaffAmong } from './kiosk-pins.repository.ts';

type WriteTimeEntries = (
  tx: Tx,
  actor: Actor,
  changes: Array<Change<TimeEntryDoc>>,
) => Promise<RuleError[]>;

/**
 * Time-entry writes of an actor the shared rule limits to clock moves (a kiosk): each change
 * must be one clock moves make, for someone on the kiosk's list; then the feature's one write
 * path checks the entry rules and stores. Anyone else goes straight to that write path.
 */
export function limitToClockMoves(write: WriteTimeEntries): WriteTimeEntries {
  return async (tx, actor, changes) => {
    if (!accessTo('time-entries', actor)?.clockMovesOnly) return write(tx, actor, changes);
    const now = new Date();
    const errors: RuleError[] = [];
    const listed = await kioskStaffAmong(
      tx,
      actor.orgId ?? '',
      changes.map((change) => change.next.userId),
    );
    for (const { next, master } of changes) {
      const refusal = listed.has(next.userId)
        ? kioskChangeRefusal(master, next, now)
        : kioskMessages.notAtThisKiosk;
      if (refusal) errors.push({ id: next.id, message: refusal });
    }
    return errors.length ? errors : write(tx, actor, changes);
  };
}
