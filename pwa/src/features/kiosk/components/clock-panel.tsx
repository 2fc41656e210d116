import { useState } from 'react';
import { kioskMovesFor } from '@platform/schema/kiosk/kiosk-moves.rules';
import type { Kiosk, KioskStaffMember } from '@platform/schema/kiosk/kiosk.zod';
import type { ClockAction } from '@platform/schema/time-tracking/time-clock.rules';
import {
  clockFailureMessages,
  clockSuccessMessages,
} from '@platform/schema/time-tracking/time-tracking.messages';
import { useToast } from '../../../components/toast/toast-context.ts';
import type { AccountDatabase } from '../../../db/database.ts';
import { usePersonClock } from '../hooks/use-person-clock.ts';
import { clockStatusText, kioskMoveLabels } from '../kiosk-texts.ts';
import { recordClockMove } from '../record-clock-move.ts';

/** spec §3 current status and §4 the moves it allows, with the §8 toasts; then back to the list. */
export function ClockPanel({
  kiosk,
  db,
  person,
  onDone,
}: {
  kiosk: Kiosk;
  db: AccountDatabase | null;
  person: KioskStaffMember;
  onDone: () => void;
}) {
  const toast = useToast();
  const state = usePersonClock(db, kiosk.org.id, person.userId);
  const [busy, setBusy] = useState<ClockAction | null>(null);

  async function run(action: ClockAction) {
    if (!db || !state || busy) return;
    setBusy(action);
    try {
      const target = { orgId: kiosk.org.id, userId: person.userId };
      const result = await recordClockMove(db, target, state, action);
      if (!result.ok) {
        toast.error(clockFailureMessages[action]);
        return;
      }
      toast.success(clockSuccessMessages[action]);
      onDone();
    } catch (error) {
      console.error('kiosk clock move failed', error);
      toast.error(clockFailureMessages[action]);
    } finally {
      setBusy(null);
    }
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
          <p className="kiosk-status">{clockStatusText(state, kiosk.org.timezone)}</p>
          <div className="kiosk-moves">
            {kioskMovesFor(state).map((action) => (
              <button
                key={action}
                type="button"
                className="button kiosk-move"
                disabled={busy !== null}
                aria-busy={busy === action || undefined}
                onClick={() => void run(action)}
              >
                {kioskMoveLabels[action]}
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
