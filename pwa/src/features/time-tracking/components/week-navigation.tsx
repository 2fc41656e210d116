import { addDays, type DayKey } from '@platform/schema/time-tracking/org-calendar';
import { formatDayRange } from '../time-display.ts';

type Props = {
  monday: DayKey;
  thisMonday: DayKey;
  timeZone: string;
  onChange: (monday: DayKey) => void;
};

/** Which week the page shows: the dates, and the way to the weeks around it. */
export function WeekNavigation({ monday, thisMonday, timeZone, onChange }: Props) {
  return (
    <nav className="week-navigation" aria-label="Weeks">
      <p className="week-dates" aria-live="polite">
        <span className="sr-only">Showing the week of </span>
        {formatDayRange(monday, addDays(monday, 6), timeZone)}
        {monday === thisMonday && <span className="clock-muted"> (this week)</span>}
      </p>
      <div className="button-row">
        <button
          type="button"
          className="button button-secondary button-small"
          onClick={() => onChange(addDays(monday, -7))}
        >
          Previous week
        </button>
        <button
          type="button"
          className="button button-secondary button-small"
          disabled={monday === thisMonday}
          onClick={() => onChange(thisMonday)}
        >
          This week
        </button>
        <button
          type="button"
          className="button button-secondary button-small"
          onClick={() => onChange(addDays(monday, 7))}
        >
          Next week
        </button>
      </div>
    </nav>
  );
}
