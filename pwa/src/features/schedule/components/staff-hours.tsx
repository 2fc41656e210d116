import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  availabilityDocSchema,
  availabilityInputSchema,
  type AvailabilityInput,
  type StaffHoursResponse,
} from '@platform/schema/schedule/appointments.zod';
import { weekdayKeys } from '@platform/schema/schedule/recurrence';
import { FormNotice, type Notice } from '../../../components/form-notice.tsx';
import type { AccountDatabase } from '../../../db/database.ts';
import { useLiveQuery } from '../../../db/use-live-query.ts';
import { NetworkError } from '../../../lib/api.ts';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { failureText } from '../../../lib/request-failure.ts';
import { getStaffHours, saveStaffHours } from '../api/appointments.ts';
import {
  ExceptionDay,
  WeekdayHours,
  hoursRow,
  nextKey,
  type Draft,
} from './staff-hours-fields.tsx';

type Person = StaffHoursResponse['staff'][number];
const draftOf = (person: Person): Draft => ({
  weekly: person.weekly.map((h) => ({ ...hoursRow(h.from, h.to), weekday: h.weekday })),
  exceptions: person.exceptions.map((e) => ({
    key: nextKey(),
    day: e.day,
    dayOff: e.hours.length === 0,
    hours: e.hours.map((h) => hoursRow(h.from, h.to)),
  })),
});

// One entry per row, in the draft's order: the schema's issue paths then name the draft's rows.
const inputOf = (draft: Draft) => ({
  weekly: draft.weekly.map(({ weekday, from, to }) => ({ weekday, from, to })),
  exceptions: draft.exceptions.map((e) => ({
    day: e.day,
    hours: e.dayOff ? [] : e.hours.map(({ from, to }) => ({ from, to })),
  })),
});

/** The first message for each path ('weekly.3.from', 'exceptions.0.day', 'exceptions'). */
function issuesOf(draft: Draft): Map<string, string> {
  const issues = new Map<string, string>();
  const result = availabilityInputSchema.safeParse(inputOf(draft));
  for (const issue of result.error?.issues ?? []) {
    const path = issue.path.join('.');
    if (!issues.has(path)) issues.set(path, issue.message);
  }
  return issues;
}

const sortedInput = (input: AvailabilityInput): AvailabilityInput => ({
  weekly: [...input.weekly].sort(
    (a, b) =>
      weekdayKeys.indexOf(a.weekday) - weekdayKeys.indexOf(b.weekday) ||
      a.from.localeCompare(b.from),
  ),
  exceptions: [...input.exceptions].sort((a, b) => a.day.localeCompare(b.day)),
});

/**
 * "Staff hours for appointments" (issue 16): when each member of staff can be booked, week by
 * week, and the days that differ. The hours are the device's replica (`availability`: offline
 * too, and a save comes back by replication); who is on the staff — also those without hours
 * yet — is asked of the server (TanStack Query), and offline it is those the replica has.
 */
export function StaffHours({
  db,
  orgId,
  timeZone,
}: {
  db: AccountDatabase | null;
  orgId: string;
  timeZone: string;
}) {
  const online = useOnlineStatus();
  const hours = useQuery({
    queryKey: ['schedule', orgId, 'staff-hours'],
    queryFn: ({ signal }) => getStaffHours(signal),
    enabled: online,
  });
  const replicaQuery = useLiveQuery(db, 'availability', { selector: { orgId } });
  const replica = new Map(
    replicaQuery.documents.flatMap((doc) => {
      const parsed = availabilityDocSchema.safeParse(doc);
      return parsed.success ? [[parsed.data.userId, parsed.data] as const] : [];
    }),
  );
  const named =
    hours.data?.staff ?? [...replica.values()].map((d) => ({ ...d, name: d.staffName }));
  const staff: Person[] = named.map((s) => {
    const held = replica.get(s.userId);
    return held ? { ...s, weekly: held.weekly, exceptions: held.exceptions } : s;
  });
  const [userId, setUserId] = useState('');
  const person = staff.find((s) => s.userId === userId) ?? staff[0] ?? null;

  return (
    <section className="staff-hours" aria-labelledby="staff-hours-heading">
      <h2 id="staff-hours-heading">Staff hours for appointments</h2>
      <p className="field-hint">
        When each member of staff can be booked, in {timeZone.replace(/_/g, ' ')} time.
      </p>
      {staff.length === 0 && !online ? (
        <p className="field-hint">You are offline. Staff hours need a connection.</p>
      ) : staff.length === 0 && hours.isPending ? (
        <p role="status">Loading the staff hours…</p>
      ) : staff.length === 0 && hours.isError ? (
        <div role="alert" className="form-error">
          <p>
            {hours.error instanceof NetworkError
              ? 'You are offline. Staff hours need a connection.'
              : 'The staff hours could not be loaded.'}
          </p>
          <button
            type="button"
            className="button button-secondary"
            onClick={() => void hours.refetch()}
          >
            Try again
          </button>
        </div>
      ) : !person ? (
        <p className="field-hint">Nobody is on the staff yet.</p>
      ) : (
        <>
          <div className="field">
            <label htmlFor="staff-hours-person">Staff member</label>
            <select
              id="staff-hours-person"
              value={person.userId}
              onChange={(event) => setUserId(event.target.value)}
            >
              {staff.map((s) => (
                <option key={s.userId} value={s.userId}>
                  {s.name}
                </option>
              ))}
            </select>
          </div>
          <StaffHoursEditor key={person.userId} person={person} online={online} />
        </>
      )}
    </section>
  );
}

function StaffHoursEditor({ person, online }: { person: Person; online: boolean }) {
  const [draft, setDraft] = useState(() => draftOf(person));
  // Messages show from the first save on, and then follow every change.
  const [checked, setChecked] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const save = useMutation({
    mutationFn: (input: AvailabilityInput) => saveStaffHours(person.userId, input),
    onSuccess: () => {
      setNotice({ tone: 'success', text: `Hours saved for ${person.name}.` });
    },
    onError: (error) => setNotice({ tone: 'error', text: failureText(error, 'Saving the hours') }),
  });
  const issues = checked ? issuesOf(draft) : new Map<string, string>();
  const change = (next: (draft: Draft) => Draft) => {
    setNotice(null);
    setDraft(next);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    const parsed = availabilityInputSchema.safeParse(inputOf(draft));
    if (!parsed.success) {
      setNotice({ tone: 'error', text: 'Check the hours marked below.' });
      return;
    }
    setNotice(null);
    save.mutate(sortedInput(parsed.data));
  };
  return (
    <form className="form staff-hours-form" noValidate onSubmit={submit}>
      <fieldset className="hours-group">
        <legend>Every week</legend>
        {issues.has('weekly') && <p className="field-error">{issues.get('weekly')}</p>}
        {weekdayKeys.map((weekday) => (
          <WeekdayHours
            key={weekday}
            weekday={weekday}
            weekly={draft.weekly}
            issues={issues}
            onChange={(weekly) => change((d) => ({ ...d, weekly: weekly(d.weekly) }))}
          />
        ))}
      </fieldset>
      <fieldset className="hours-group">
        <legend>Days that differ</legend>
        {issues.has('exceptions') && <p className="field-error">{issues.get('exceptions')}</p>}
        {draft.exceptions.length === 0 && (
          <p className="field-hint">None: every week is the same.</p>
        )}
        {draft.exceptions.map((exception, index) => (
          <ExceptionDay
            key={exception.key}
            exception={exception}
            index={index}
            issues={issues}
            onChange={(patch) =>
              change((d) => ({
                ...d,
                exceptions: d.exceptions.map((e) =>
                  e.key === exception.key ? { ...e, ...patch(e) } : e,
                ),
              }))
            }
            onRemove={() =>
              change((d) => ({
                ...d,
                exceptions: d.exceptions.filter((e) => e.key !== exception.key),
              }))
            }
          />
        ))}
        <button
          type="button"
          className="button button-secondary button-small"
          onClick={() =>
            change((d) => ({
              ...d,
              exceptions: [...d.exceptions, { key: nextKey(), day: '', dayOff: true, hours: [] }],
            }))
          }
        >
          Add a day that differs
        </button>
      </fieldset>
      <FormNotice notice={notice} />
      {!online && <p className="field-hint">Saving hours needs a connection.</p>}
      <div className="button-row">
        <button
          type="submit"
          className="button"
          disabled={!online || save.isPending}
          aria-busy={save.isPending || undefined}
        >
          {save.isPending ? 'Saving…' : `Save ${person.name}’s hours`}
        </button>
      </div>
    </form>
  );
}
