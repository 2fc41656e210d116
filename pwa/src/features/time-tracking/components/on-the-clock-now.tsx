import { clockStatusText } from '@platform/schema/time-tracking/clock-moves.rules';
import type { Range } from '@platform/schema/time-tracking/org-calendar';
import { whoIsOnTheClock } from '@platform/schema/time-tracking/time-clock.rules';
import type { TimeEntryDoc } from '@platform/schema/time-tracking/time-entry.zod';
import { workedMsWithin } from '@platform/schema/time-tracking/time-totals.rules';
import { formatClockTime, formatDuration } from '../time-display.ts';

type Props = {
  /** Every entry of the organisation on this device; null until they arrived. */
  entries: TimeEntryDoc[] | null;
  nameOf: (userId: string) => string;
  today: Range;
  now: number;
  timeZone: string;
  onSelect: (userId: string) => void;
};

/**
 * Managers: who is on the clock at this moment — clocked in or on a break — with since when and
 * their time today, read from the entries on this device (so it moves when a kiosk or a phone
 * clocks someone in, and shows the last known state offline).
 */
export function OnTheClockNow({ entries, nameOf, today, now, timeZone, onSelect }: Props) {
  const on = entries ? whoIsOnTheClock(entries) : null;
  const time = (iso: string) => formatClockTime(iso, timeZone);
  const workedToday = (userId: string) =>
    (entries ?? [])
      .filter((entry) => entry.userId === userId)
      .reduce((sum, entry) => sum + workedMsWithin(entry, now, today.from, today.to), 0);

  return (
    <section className="on-the-clock" aria-labelledby="on-the-clock-heading">
      <h2 id="on-the-clock-heading">On the clock now</h2>
      {on === null ? (
        <p className="clock-muted" role="status">
          Loading who is on the clock…
        </p>
      ) : on.length === 0 ? (
        <p className="clock-muted">Nobody is on the clock right now.</p>
      ) : (
        <ul className="on-the-clock-list">
          {on.map((person) => (
            <li key={person.userId} className="on-the-clock-row">
              <button
                type="button"
                className="button-link on-the-clock-name"
                onClick={() => onSelect(person.userId)}
              >
                {nameOf(person.userId)}
              </button>
              <span className={`status-pill status-${person.status}`}>
                {clockStatusText(person, time)}
              </span>
              <span className="on-the-clock-today">
                Today: {formatDuration(workedToday(person.userId))}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
