import { useMemo, useState } from 'react';
import type { CurrentUser } from '@platform/schema/me/me.zod';
import {
  addDays,
  dayRange,
  mondayOf,
  weekRange,
  type DayKey,
} from '@platform/schema/time-tracking/org-calendar';
import type { TimeEntryDoc } from '@platform/schema/time-tracking/time-entry.zod';
import { useEntryChanges, type EntryTarget } from '../hooks/use-entry-changes.ts';
import { useTeamPeople } from '../hooks/use-team-people.ts';
import { useWeekEntries } from '../hooks/use-week-entries.ts';
import { DeleteEntryDialog } from './delete-entry-dialog.tsx';
import { ExportForm } from './export-form.tsx';
import { OnTheClockNow } from './on-the-clock-now.tsx';
import { TeamWeek } from './team-week.tsx';
import { TimeEntryDialog } from './time-entry-dialog.tsx';
import { WeekEntries } from './week-entries.tsx';
import { WeekNavigation } from './week-navigation.tsx';

type Props = {
  user: CurrentUser;
  orgId: string;
  timeZone: string;
  now: Date;
  today: DayKey;
};

/**
 * The week view: one person's entries day by day with totals, a manager's team chart and
 * choice of person, corrections through a dialog, and the payroll export.
 */
export function TimeSheet({ user, orgId, timeZone, now, today }: Props) {
  const manager = user.claims.includes('manage-others-time-tracking');
  const thisMonday = mondayOf(today);
  const [monday, setMonday] = useState(thisMonday);
  const [personId, setPersonId] = useState(user.id);
  const [editing, setEditing] = useState<EntryTarget | null>(null);
  const [deleting, setDeleting] = useState<TimeEntryDoc | null>(null);
  const range = useMemo(() => weekRange(monday, timeZone), [monday, timeZone]);
  const todayRange = useMemo(() => dayRange(today, timeZone), [today, timeZone]);

  const week = useWeekEntries({ orgId, everyone: manager, userId: user.id, range });
  const team = useTeamPeople(orgId, manager);
  const changes = useEntryChanges(orgId, week.all);

  const nameOf = (userId: string) =>
    userId === user.id
      ? user.fullName
      : (team.people?.find((person) => person.id === userId)?.fullName ?? 'Former staff member');
  const personEntries = week.entries?.filter((entry) => entry.userId === personId) ?? null;
  const firstDay = today >= monday && today <= addDays(monday, 6) ? today : monday;
  const selectPerson = (userId: string) => {
    setPersonId(userId);
    document.getElementById('week-entries-heading')?.focus();
  };

  const personPicker = manager && (
    <div className="field person-picker">
      <label htmlFor="week-person">Person</label>
      <select
        id="week-person"
        value={personId}
        onChange={(event) => setPersonId(event.target.value)}
      >
        {!team.people?.some((person) => person.id === user.id) && (
          <option value={user.id}>{user.fullName}</option>
        )}
        {(team.people ?? []).map((person) => (
          <option key={person.id} value={person.id}>
            {person.fullName}
          </option>
        ))}
      </select>
    </div>
  );

  return (
    <>
      {manager && (
        <OnTheClockNow
          entries={week.ready ? week.all : null}
          nameOf={nameOf}
          today={todayRange}
          now={now.getTime()}
          timeZone={timeZone}
          onSelect={(userId) => {
            setMonday(thisMonday);
            selectPerson(userId);
          }}
        />
      )}
      <WeekNavigation
        monday={monday}
        thisMonday={thisMonday}
        timeZone={timeZone}
        onChange={setMonday}
      />
      {manager && (
        <TeamWeek
          people={team.people}
          peopleFailed={team.failed}
          entries={week.entries}
          monday={monday}
          timeZone={timeZone}
          now={now.getTime()}
          selectedUserId={personId}
          onSelect={selectPerson}
        />
      )}
      <WeekEntries
        entries={personEntries}
        monday={monday}
        timeZone={timeZone}
        now={now.getTime()}
        personPicker={personPicker}
        canAdd
        canEdit={(entry) => manager || entry.userId === user.id}
        onAdd={() => setEditing({ kind: 'create', userId: personId })}
        onEdit={(entry) => setEditing({ kind: 'edit', entry })}
        onDelete={setDeleting}
      />
      <ExportForm
        key={monday}
        orgId={orgId}
        initial={{ from: monday, to: addDays(monday, 6) }}
        people={manager ? team.people : null}
      />
      {editing && (
        <TimeEntryDialog
          target={editing}
          blank={{ start: `${firstDay}T09:00`, end: `${firstDay}T17:00`, breaks: [] }}
          personName={nameOf(editing.kind === 'create' ? editing.userId : editing.entry.userId)}
          timeZone={timeZone}
          onSave={changes.save}
          onClose={() => setEditing(null)}
        />
      )}
      {deleting && (
        <DeleteEntryDialog
          entry={deleting}
          personName={nameOf(deleting.userId)}
          timeZone={timeZone}
          onDelete={changes.remove}
          onClose={() => setDeleting(null)}
        />
      )}
    </>
  );
}
