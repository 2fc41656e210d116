import type { ReactNode } from 'react';
import type { DayKey } from '@platform/schema/time-tracking/org-calendar';
import type { TimeEntryDoc } from '@platform/schema/time-tracking/time-entry.zod';
import { weekTotals } from '@platform/schema/time-tracking/time-totals.rules';
import { formatDuration } from '../time-display.ts';
import { DayEntries } from './day-entries.tsx';

type Props = {
  /** The entries of the person shown; null until they reached this device. */
  entries: TimeEntryDoc[] | null;
  monday: DayKey;
  timeZone: string;
  now: number;
  /** A manager's choice of whose week to show. */
  personPicker?: ReactNode;
  canAdd: boolean;
  canEdit: (entry: TimeEntryDoc) => boolean;
  onAdd: () => void;
  onEdit: (entry: TimeEntryDoc) => void;
  onDelete: (entry: TimeEntryDoc) => void;
};

/** A week of one person's entries, day by day from Monday, with each day's total and the week's. */
export function WeekEntries({ entries, monday, timeZone, now, personPicker, ...actions }: Props) {
  const week = entries ? weekTotals(entries, monday, timeZone, now) : null;
  return (
    <section className="week-entries" aria-labelledby="week-entries-heading">
      <div className="week-entries-header">
        <h2 id="week-entries-heading" tabIndex={-1}>
          Week
        </h2>
        {personPicker}
      </div>
      {week === null ? (
        <p className="clock-muted" role="status">
          Loading the week’s entries…
        </p>
      ) : (
        <>
          <div className="week-summary">
            <p className="week-total">Week total: {formatDuration(week.totalMs)}</p>
            {actions.canAdd && (
              <button type="button" className="button button-small" onClick={actions.onAdd}>
                Add entry
              </button>
            )}
          </div>
          {week.days.map((day) => (
            <DayEntries
              key={day.day}
              total={day}
              now={now}
              timeZone={timeZone}
              canEdit={actions.canEdit}
              onEdit={actions.onEdit}
              onDelete={actions.onDelete}
            />
          ))}
        </>
      )}
    </section>
  );
}
