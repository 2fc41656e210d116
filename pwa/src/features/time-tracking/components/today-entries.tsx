import type { Range } from '@platform/schema/time-tracking/org-calendar';
import type { TimeEntryDoc } from '@platform/schema/time-tracking/time-entry.zod';
import { workedMsWithin } from '@platform/schema/time-tracking/time-totals.rules';
import { formatBreaks, formatClockTime, formatDuration } from '../time-display.ts';

type Props = {
  /** null until the entries reached this device. */
  entries: TimeEntryDoc[] | null;
  now: Date;
  /** Today, the organisation's day: an entry from last night counts only from midnight. */
  today: Range;
  timeZone: string;
};

/** Today's time entries: start, end, breaks and time worked. */
export function TodayEntries({ entries, now, today, timeZone }: Props) {
  return (
    <section className="today-entries" aria-labelledby="today-entries-heading">
      <h2 id="today-entries-heading">Today</h2>
      {entries === null ? (
        <p className="clock-muted" role="status">
          Loading today’s entries…
        </p>
      ) : entries.length === 0 ? (
        <p className="clock-muted">No time recorded today.</p>
      ) : (
        <table className="entries-table">
          <thead>
            <tr>
              <th scope="col">Start</th>
              <th scope="col">End</th>
              <th scope="col">Breaks</th>
              <th scope="col">Worked</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td>{formatClockTime(entry.startTime, timeZone)}</td>
                <td>{entry.endTime ? formatClockTime(entry.endTime, timeZone) : 'Running'}</td>
                <td>{formatBreaks(entry, timeZone)}</td>
                <td>
                  {formatDuration(workedMsWithin(entry, now.getTime(), today.from, today.to))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
