import { orgFormat } from '@platform/schema/organizations/org-format';
import { weekDays, type DayKey } from '@platform/schema/time-tracking/org-calendar';
import type { TimeEntryDoc } from '@platform/schema/time-tracking/time-entry.zod';
import { totalsByPersonAndDay } from '@platform/schema/time-tracking/time-totals.rules';
import type { TimeTrackingPerson } from '@platform/schema/time-tracking/time-tracking.zod';
import { formatDuration } from '../time-display.ts';

type Props = {
  people: TimeTrackingPerson[] | null;
  peopleFailed: boolean;
  /** Everyone's entries in `range`; null while loading. */
  entries: TimeEntryDoc[] | null;
  monday: DayKey;
  timeZone: string;
  now: number;
  selectedUserId: string;
  onSelect: (userId: string) => void;
};

const formerStaff = 'Former staff member';

/**
 * Managers: everyone's hours in the week as bars with their values written out, then the
 * people × days grid (each day's hours per person, day and person totals). Picking a name shows
 * that person's entries to correct.
 */
export function TeamWeek({
  people,
  peopleFailed,
  entries,
  monday,
  timeZone,
  now,
  selectedUserId,
  onSelect,
}: Props) {
  const names = new Map((people ?? []).map((person) => [person.id, person.fullName]));
  const days = weekDays(monday);
  const rows =
    people && entries
      ? totalsByPersonAndDay(
          entries,
          people.map((p) => p.id),
          days,
          timeZone,
          now,
        ).map((row) => ({
          ...row,
          workedMs: row.totalMs,
          name: names.get(row.userId) ?? formerStaff,
        }))
      : null;
  const longest = Math.max(3_600_000, ...(rows ?? []).map((row) => row.workedMs));
  const teamTotal = (rows ?? []).reduce((sum, row) => sum + row.workedMs, 0);
  const dayTotals = days.map((_, i) =>
    (rows ?? []).reduce((sum, row) => sum + (row.days[i] ?? 0), 0),
  );
  const { shortDay, day: longDay } = orgFormat(timeZone);

  return (
    <section className="team-week" aria-labelledby="team-week-heading">
      <h2 id="team-week-heading">Team</h2>
      {rows === null ? (
        peopleFailed ? (
          <p className="clock-muted">The team’s hours need a connection to the server.</p>
        ) : (
          <p className="clock-muted" role="status">
            Loading the team’s hours…
          </p>
        )
      ) : (
        <>
          <p className="week-total">Team total: {formatDuration(teamTotal)}</p>
          <figure className="team-chart">
            <figcaption id="team-chart-caption">Hours worked per person this week</figcaption>
            <ul className="team-bars" aria-labelledby="team-chart-caption">
              {rows.map((row) => (
                <li key={row.userId} className="team-bar-row">
                  <button
                    type="button"
                    className="button-link team-bar-name"
                    aria-pressed={row.userId === selectedUserId}
                    onClick={() => onSelect(row.userId)}
                  >
                    {row.name}
                  </button>
                  <span className="team-bar-track" aria-hidden="true">
                    <span
                      className="team-bar"
                      style={{ inlineSize: `${(100 * row.workedMs) / longest}%` }}
                    />
                  </span>
                  <span className="team-bar-value">{formatDuration(row.workedMs)}</span>
                </li>
              ))}
            </ul>
          </figure>
          <div
            className="team-grid-scroll"
            role="region"
            aria-labelledby="team-grid-caption"
            // Scrolls sideways on a phone: reachable by keyboard (axe scrollable-region-focusable).
            tabIndex={0}
          >
            <table className="entries-table team-grid">
              <caption id="team-grid-caption">Hours per person and day</caption>
              <thead>
                <tr>
                  <th scope="col">Person</th>
                  {days.map((day) => (
                    <th key={day} scope="col">
                      <abbr title={longDay(day)}>{shortDay(day)}</abbr>
                    </th>
                  ))}
                  <th scope="col">Week</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.userId}>
                    <th scope="row">{row.name}</th>
                    {row.days.map((ms, i) => (
                      <td key={days[i]} className={ms === 0 ? 'team-grid-empty' : undefined}>
                        {formatDuration(ms)}
                      </td>
                    ))}
                    <td className="team-grid-total">{formatDuration(row.totalMs)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">Team</th>
                  {dayTotals.map((ms, i) => (
                    <td key={days[i]}>{formatDuration(ms)}</td>
                  ))}
                  <td className="team-grid-total">{formatDuration(teamTotal)}</td>
                </tr>
              </tfoot>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
