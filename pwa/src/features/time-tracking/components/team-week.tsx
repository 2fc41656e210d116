import type { Range } from '@platform/schema/time-tracking/org-calendar';
import type { TimeEntryDoc } from '@platform/schema/time-tracking/time-entry.zod';
import { totalsByPerson } from '@platform/schema/time-tracking/time-totals.rules';
import type { TimeTrackingPerson } from '@platform/schema/time-tracking/time-tracking.zod';
import { formatDuration } from '../time-display.ts';

type Props = {
  people: TimeTrackingPerson[] | null;
  peopleFailed: boolean;
  /** Everyone's entries in `range`; null while loading. */
  entries: TimeEntryDoc[] | null;
  range: Range;
  now: number;
  selectedUserId: string;
  onSelect: (userId: string) => void;
};

const formerStaff = 'Former staff member';

/**
 * Managers: everyone's hours in the week as bars with their values written out, and the same
 * figures as a table. Picking a name shows that person's entries to correct.
 */
export function TeamWeek({
  people,
  peopleFailed,
  entries,
  range,
  now,
  selectedUserId,
  onSelect,
}: Props) {
  const names = new Map((people ?? []).map((person) => [person.id, person.fullName]));
  const rows =
    people && entries
      ? totalsByPerson(
          entries,
          people.map((p) => p.id),
          range,
          now,
        ).map((row) => ({ ...row, name: names.get(row.userId) ?? formerStaff }))
      : null;
  const longest = Math.max(3_600_000, ...(rows ?? []).map((row) => row.workedMs));
  const teamTotal = (rows ?? []).reduce((sum, row) => sum + row.workedMs, 0);

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
          <details className="team-table">
            <summary>Show as a table</summary>
            <table className="entries-table">
              <caption className="sr-only">Hours worked per person this week</caption>
              <thead>
                <tr>
                  <th scope="col">Person</th>
                  <th scope="col">Worked</th>
                  <th scope="col">Hours (decimal)</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.userId}>
                    <th scope="row">{row.name}</th>
                    <td>{formatDuration(row.workedMs)}</td>
                    <td>{(row.workedMs / 3_600_000).toFixed(2)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </>
      )}
    </section>
  );
}
