import { type WeekdayKey } from '@platform/schema/schedule/recurrence';

import { TextField } from '../../../components/form-fields.tsx';

const weekdayNames: Record<WeekdayKey, string> = {
  MO: 'Monday',
  TU: 'Tuesday',
  WE: 'Wednesday',
  TH: 'Thursday',
  FR: 'Friday',
  SA: 'Saturday',
  SU: 'Sunday',
};

export type Hours = { key: number; from: string; to: string };
export type Draft = {
  weekly: Array<Hours & { weekday: WeekdayKey }>;
  exceptions: Array<{ key: number; day: string; dayOff: boolean; hours: Hours[] }>;
};

// Rows need stable keys while they are added and removed; the saved hours have none.
let lastKey = 0;
export const nextKey = () => ++lastKey;
export const hoursRow = (from = '09:00', to = '17:00'): Hours => ({ key: ++lastKey, from, to });

const editHours = <R extends Hours>(rows: R[], key: number, patch: Partial<Hours>): R[] =>
  rows.map((row) => (row.key === key ? { ...row, ...patch } : row));

type Weekly = Draft['weekly'];

/** One weekday's rows of the weekly hours (which stay one list, in the order they were added). */
export function WeekdayHours({
  weekday,
  weekly,
  issues,
  onChange,
}: {
  weekday: WeekdayKey;
  weekly: Weekly;
  issues: Map<string, string>;
  onChange: (edit: (weekly: Weekly) => Weekly) => void;
}) {
  const name = weekdayNames[weekday];
  const rows = weekly.flatMap((row, index) => (row.weekday === weekday ? [{ row, index }] : []));
  return (
    <fieldset className="hours-day">
      <legend>{name}</legend>
      {rows.length === 0 && <p className="field-hint">Not available</p>}
      {rows.map(({ row, index }, n) => (
        <HoursFields
          key={row.key}
          context={`${name}, hours ${n + 1}`}
          hours={row}
          issues={issues}
          path={`weekly.${index}`}
          onChange={(patch) => onChange((w) => editHours(w, row.key, patch))}
          onRemove={() => onChange((w) => w.filter((r) => r.key !== row.key))}
        />
      ))}
      <button
        type="button"
        className="button button-secondary button-small"
        onClick={() => onChange((w) => [...w, { ...hoursRow(), weekday }])}
      >
        Add hours<span className="sr-only"> on {name}</span>
      </button>
    </fieldset>
  );
}

type Exception = Draft['exceptions'][number];

/** A day that differs: its date, and either a day off or its own hours. */
export function ExceptionDay({
  exception,
  index,
  issues,
  onChange,
  onRemove,
}: {
  exception: Exception;
  index: number;
  issues: Map<string, string>;
  onChange: (patch: (e: Exception) => Partial<Exception>) => void;
  onRemove: () => void;
}) {
  const context = `day that differs ${index + 1}`;
  return (
    <div className="hours-day" role="group" aria-label={`Day that differs ${index + 1}`}>
      <TextField
        label={
          <>
            Date<span className="sr-only"> ({context})</span>
          </>
        }
        type="date"
        value={exception.day}
        error={issues.get(`exceptions.${index}.day`)}
        onChange={(event) => onChange(() => ({ day: event.target.value }))}
      />
      <fieldset className="choice-row">
        <legend className="sr-only">That day ({context})</legend>
        <label>
          <input
            type="radio"
            name={`exception-${exception.key}`}
            checked={exception.dayOff}
            onChange={() => onChange(() => ({ dayOff: true }))}
          />{' '}
          Day off
        </label>
        <label>
          <input
            type="radio"
            name={`exception-${exception.key}`}
            checked={!exception.dayOff}
            onChange={() =>
              onChange((e) => ({ dayOff: false, hours: e.hours.length ? e.hours : [hoursRow()] }))
            }
          />{' '}
          Other hours
        </label>
      </fieldset>
      {!exception.dayOff && (
        <>
          {exception.hours.map((row, n) => (
            <HoursFields
              key={row.key}
              context={`${context}, hours ${n + 1}`}
              hours={row}
              issues={issues}
              path={`exceptions.${index}.hours.${n}`}
              onChange={(patch) => onChange((e) => ({ hours: editHours(e.hours, row.key, patch) }))}
              onRemove={() =>
                onChange((e) => ({ hours: e.hours.filter((r) => r.key !== row.key) }))
              }
            />
          ))}
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() => onChange((e) => ({ hours: [...e.hours, hoursRow()] }))}
          >
            Add hours<span className="sr-only"> ({context})</span>
          </button>
        </>
      )}
      <button type="button" className="button button-secondary button-small" onClick={onRemove}>
        Remove this day<span className="sr-only"> ({context})</span>
      </button>
    </div>
  );
}

/** One from–to row: its messages under its fields, 'end after start' under the end. */
function HoursFields({
  context,
  hours,
  issues,
  path,
  onChange,
  onRemove,
}: {
  context: string;
  hours: Hours;
  issues: Map<string, string>;
  path: string;
  onChange: (patch: Partial<Hours>) => void;
  onRemove: () => void;
}) {
  return (
    <div className="hours-row">
      <TextField
        label={
          <>
            From<span className="sr-only"> ({context})</span>
          </>
        }
        type="time"
        value={hours.from}
        error={issues.get(`${path}.from`)}
        onChange={(event) => onChange({ from: event.target.value })}
      />
      <TextField
        label={
          <>
            To<span className="sr-only"> ({context})</span>
          </>
        }
        type="time"
        value={hours.to}
        error={issues.get(`${path}.to`) ?? issues.get(path)}
        onChange={(event) => onChange({ to: event.target.value })}
      />
      <button type="button" className="button button-secondary button-small" onClick={onRemove}>
        Remove<span className="sr-only"> ({context})</span>
      </button>
    </div>
  );
}
