import {
  clockMoveLabels,
  clockStatusText,
  offeredClockMoves,
} from '@platform/schema/time-tracking/clock-moves.rules';
import type { ClockAction, ClockState } from '@platform/schema/time-tracking/time-clock.rules';
import { formatClockTime, formatTimer } from '../time-display.ts';

type Props = {
  state: ClockState | null;
  workedToday: number;
  timeZone: string;
  pending: ClockAction | null;
  offline: boolean;
  onAction: (action: ClockAction) => void;
};

/** spec §3 current status, §4 the moves it allows. */
export function ClockStatusCard({
  state,
  workedToday,
  timeZone,
  pending,
  offline,
  onAction,
}: Props) {
  return (
    <section className="clock-card" aria-labelledby="clock-card-heading">
      <h2 id="clock-card-heading">Current status</h2>
      {state === null ? (
        <p className="clock-muted" role="status">
          Loading your status…
        </p>
      ) : (
        <>
          <p className="clock-status">
            {clockStatusText(state, (iso) => formatClockTime(iso, timeZone))}
          </p>
          <p className="clock-timer">
            <span className="clock-muted">Worked today </span>
            <time aria-label="Worked today" dateTime={`PT${Math.floor(workedToday / 1000)}S`}>
              {formatTimer(workedToday)}
            </time>
          </p>
          {offline && (
            <p className="clock-muted">
              You are offline: moves are saved on this device and sent when you are back online.
            </p>
          )}
          <div className="button-row">
            {offeredClockMoves(state).map((action) => (
              <button
                key={action}
                type="button"
                className={action === 'clock-out' ? 'button-secondary' : 'button'}
                disabled={pending !== null}
                aria-busy={pending === action}
                onClick={() => onAction(action)}
              >
                {clockMoveLabels[action]}
              </button>
            ))}
          </div>
        </>
      )}
    </section>
  );
}
