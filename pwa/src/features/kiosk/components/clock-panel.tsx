import {
  clockMoveLabels,
  clockStatusText,
  offeredClockMoves,
} from '@platform/schema/time-tracking/clock-moves.rules';
import type { Kiosk, KioskStaffMember } from '@platform/schema/kiosk/kiosk.zod';
import type { ClockAction } from '@platform/schema/time-tracking/time-clock.rules';
import type { AccountDatabase } from '../../../db/database.ts';
import type { SyncStatus } from '../../../sync/replication.ts';
import { useClockMove } from '../../../sync/use-clock-move.ts';
import { usePersonClock } from '../hooks/use-person-clock.ts';
import { orgFormat } from '@platform/schema/organizations/org-format';

/** spec §3 current status and §4 the moves it allows, with the §8 toasts; then back to the list. */
export function ClockPanel({
  kiosk,
  db,
  status,
  person,
  onDone,
  onMoved,
}: {
  kiosk: Kiosk;
  db: AccountDatabase | null;
  status: SyncStatus | null;
  person: KioskStaffMember;
  onDone: () => void;
  /** A move was recorded on the device, at `at`. */
  onMoved: (action: ClockAction, at: number) => void;
}) {
  const state = usePersonClock(db, kiosk.org.id, person.userId);
  const clock = useClockMove(db, status);

  async function run(action: ClockAction) {
    if (!state) return;
    const target = { orgId: kiosk.org.id, userId: person.userId };
    const at = await clock.run(target, state, action);
    if (at) onMoved(action, at.getTime());
  }

  return (
    <section className="kiosk-panel" aria-labelledby="kiosk-clock-heading">
      <h1 id="kiosk-clock-heading">{person.name}</h1>
      {state === null ? (
        <p className="kiosk-muted" role="status">
          Loading your status…
        </p>
      ) : (
        <>
          <p className="kiosk-status">
            {clockStatusText(state, orgFormat(kiosk.org.timezone).time)}
          </p>
          <div className="kiosk-moves">
            {offeredClockMoves(state).map((action) => (
              <button
                key={action}
                type="button"
                className="button kiosk-move"
                disabled={clock.pending !== null}
                aria-busy={clock.pending === action || undefined}
                onClick={() => void run(action)}
              >
                {clockMoveLabels[action]}
              </button>
            ))}
          </div>
        </>
      )}
      <button type="button" className="button button-secondary" onClick={onDone}>
        Done
      </button>
    </section>
  );
}
