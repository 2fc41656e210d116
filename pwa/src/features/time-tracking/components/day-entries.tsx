import type { TimeEntryDoc } from '@platform/schema/time-tracking/time-entry.zod';
import { workedMsWithin, type DayTotal } from '@platform/schema/time-tracking/time-totals.rules';
import { entrySummary } from '../entry-summary.ts';
import { formatBreaks, formatDay, formatDuration, formatTimeOnDay } from '../time-display.ts';

type Props = {
  total: DayTotal<TimeEntryDoc>;
  now: number;
  timeZone: string;
  canEdit: (entry: TimeEntryDoc) => boolean;
  onEdit: (entry: TimeEntryDoc) => void;
  onDelete: (entry: TimeEntryDoc) => void;
};

/** One of the organisation's days: its entries (the day's share of each) and its total. */
export function DayEntries({ total, now, timeZone, canEdit, onEdit, onDelete }: Props) {
  const headingId = `day-${total.day}`;
  const { from, to } = total.range;
  return (
    <section className="day-entries" aria-labelledby={headingId}>
      <div className="day-entries-header">
        <h3 id={headingId}>{formatDay(total.day, timeZone)}</h3>
        <p className="day-total">Day total: {formatDuration(total.workedMs)}</p>
      </div>
      {total.entries.length === 0 ? (
        <p className="clock-muted">No time recorded.</p>
      ) : (
        <table className="entries-table">
          <thead>
            <tr>
              <th scope="col">Start</th>
              <th scope="col">End</th>
              <th scope="col">Breaks</th>
              <th scope="col">Worked</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {total.entries.map((entry) => (
              <tr key={entry.id}>
                <td>{formatTimeOnDay(entry.startTime, total.day, timeZone)}</td>
                <td>
                  {entry.endTime ? formatTimeOnDay(entry.endTime, total.day, timeZone) : 'Running'}
                </td>
                <td>{formatBreaks(entry, timeZone)}</td>
                <td>{formatDuration(workedMsWithin(entry, now, from, to))}</td>
                <td className="entry-actions">
                  {canEdit(entry) && (
                    <>
                      <button
                        type="button"
                        className="button button-secondary button-small"
                        onClick={() => onEdit(entry)}
                      >
                        Edit<span className="sr-only"> entry {entrySummary(entry, timeZone)}</span>
                      </button>
                      <button
                        type="button"
                        className="button button-secondary button-small"
                        onClick={() => onDelete(entry)}
                      >
                        Delete
                        <span className="sr-only"> entry {entrySummary(entry, timeZone)}</span>
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
