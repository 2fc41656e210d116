import type { ClockAction, ClockState } from '@platform/schema/time-tracking/time-clock.rules';
import { allowedActions, clockActionLabels } from '../allowed-actions.ts';
import { formatClockTime, formatTimer } from '../time-display.ts';

type Props = {
  state: ClockState | null;
  workedToday: number;
  timeZone: string;
  pending: ClockAction | null;
  offline: boolean;
  onAction: (action: ClockAction) => void;
};

function statusText(state: ClockState, timeZone: string): string {
  const entry = state.activeEntry;
  switch (state.status) {
    case 'none':
      return 'Not clocked in';
    case 'completed':
      return 'Clocked out';
    case 'active':
      return entry
        ? `Clocked in since ${formatClockTime(entry.startTime, timeZone)}`
        : 'Clocked in';
    case 'on_break': {
      const started = entry?.breakIntervals.at(-1)?.startTime;
      return started ? `On break since ${formatClockTime(started, timeZone)}` : 'On break';
    }
  }
}

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
          <p className="clock-status">{statusText(state, timeZone)}</p>
          <p className="clock-timer">
            <span className="clock-muted">Worked today </span>
            <time aria-label="Worked today" dateTime={`PT${Math.floor(workedToday / 1000)}S`}>
              {formatTimer(workedToday)}
            </time>
          </p>
          {offline && (
            <p className="clock-muted">You are offline; this is the clock as this device has it.</p>
          )}
          <div className="button-row">
            {allowedActions(state).map((action) => (
              <button
                key={action}
                type="button"
                className={action === 'clock-out' ? 'button-secondary' : 'button'}
                disabled={pending !== null}
                aria-busy={pending === action}
                onClick={() => onAction(action)}
              >
                {clockActionLabels[action]}
              </button>
            ))}
          </div>
        </>
      )}
    </section>
  );
}
