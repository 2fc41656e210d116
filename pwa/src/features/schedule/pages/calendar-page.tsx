import { useCallback, useMemo, useRef, useState } from 'react';
import FullCalendar from '@fullcalendar/react';
import type {
  CalendarRef,
  DateClickInfo,
  DatesSetInfo,
  EventClickInfo,
  EventInput,
} from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/react/daygrid';
import timeGridPlugin from '@fullcalendar/react/timegrid';
import listPlugin from '@fullcalendar/react/list';
import interactionPlugin from '@fullcalendar/react/interaction';
import classicTheme from '@fullcalendar/react/themes/classic';
import '@fullcalendar/react/skeleton.css';
import '@fullcalendar/react/themes/classic/theme.css';
import '@fullcalendar/react/themes/classic/palette.css';
import {
  blankClassForm,
  classFormOf,
  type ClassFormValues,
} from '@platform/schema/schedule/class-form.zod';
import {
  classDocSchema,
  occurrenceDocSchema,
  type OccurrenceDoc,
} from '@platform/schema/schedule/schedule.zod';
import { productDocSchema } from '@platform/schema/payments/product-doc.zod';
import { addDays, dayKeyOf, wallInputOf } from '@platform/schema/time-tracking/org-calendar';
import { useQuery } from '@tanstack/react-query';
import { parsedDocuments } from '../../../db/parsed-documents.ts';
import { useLiveQuery, type ReplicaDocument } from '../../../db/use-live-query.ts';
import { useSignedInUser } from '../../../lib/current-user.ts';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { useNow } from '../../../lib/use-now.ts';
import { useAccountSync } from '../../../sync/sync-context.tsx';
import { getCoaches } from '../api/schedule.ts';
import { ClassDialog } from '../components/class-dialog.tsx';
import { OccurrencePanel, type RenderCustomerPicker } from '../components/occurrence-panel.tsx';
import { BookingSettingsForm } from '../components/booking-settings-form.tsx';
import { AppointmentTypes } from '../components/appointment-types.tsx';
import { StaffHours } from '../components/staff-hours.tsx';
import {
  documentsToHold,
  MONTH_DAY_EVENTS,
  monthDays,
  sameDocuments,
  windowsAround,
} from '../month-events.ts';
import '../schedule.css';

type Editing = { classId: string | null; initial: ClassFormValues };

// The calendar's fixed options, made once.
const plugins = [classicTheme, dayGridPlugin, timeGridPlugin, listPlugin, interactionPlugin];
const headerToolbar = {
  start: 'prev,today,next',
  center: 'title',
  end: 'timeGridDay,timeGridWeek,dayGridMonth,listWeek',
};
const buttons = {
  today: { text: 'Today', hint: 'Today' },
  day: { text: 'Day' },
  week: { text: 'Week' },
  month: { text: 'Month' },
};
const toolbarSectionClass = (section: { name: string }) =>
  section.name === 'center' ? 'schedule-toolbar-title-section' : '';

/** The class times as FullCalendar's events; a month draws a few a day and '+N more'. */
function eventsOf(
  occurrences: readonly OccurrenceDoc[],
  timeZone: string,
  month: boolean,
): EventInput[] {
  const days = month ? monthDays(occurrences, timeZone, MONTH_DAY_EVENTS) : null;
  const events: EventInput[] = (days?.drawn ?? occurrences).map((o) => ({
    id: o.id,
    title:
      o.status === 'cancelled'
        ? `Cancelled: ${o.title}`
        : `${o.title} (${o.bookedCount}/${o.capacity}${o.waitlistCount ? ` +${o.waitlistCount}` : ''})`,
    start: o.startsAt,
    end: o.endsAt,
    classNames: [
      o.status === 'cancelled' ? 'occurrence-cancelled' : 'occurrence-scheduled',
      `kind-${o.kind}`,
    ],
    extendedProps: { last: 0 },
  }));
  for (const [day, more] of days?.more ?? [])
    events.push({
      id: `more:${day}`,
      title: `+${more} more`,
      start: day,
      allDay: true,
      classNames: ['occurrence-more'],
      // After the day's class times (eventOrder below).
      extendedProps: { last: 1 },
    });
  return events;
}

/**
 * /dashboard/calendar (issue 16, claim manage-schedule): the organisation's classes and events
 * by day, week, month or as a list, in the organisation's time zone — drawn by FullCalendar
 * from the device's replica of the timetable (it opens offline; check-ins work offline).
 * Adding and changing classes goes to the server; the new times arrive by replication.
 */
export function CalendarPage({
  renderCustomerPicker,
}: {
  renderCustomerPicker: RenderCustomerPicker;
}) {
  const user = useSignedInUser();
  const timeZone = user.org?.timezone ?? 'UTC';
  const orgId = user.org?.id ?? '';
  const db = useAccountSync().sync?.db ?? null;
  const online = useOnlineStatus();
  const [range, setRange] = useState<{ from: string; to: string; view: string } | null>(null);
  const calendar = useRef<CalendarRef>(null);
  // The replica is read for the ranges either side of what is shown: going to the next or
  // previous week or month draws from documents already in hand while the windows move on, and
  // the new shown range is a read already made. The shown range is a read of its own, so it
  // answers first (issue 16: a month under 100 ms).
  const windows = useMemo(() => (range ? windowsAround(range, timeZone) : null), [range, timeZone]);
  const within = (window: { from: string; to: string } | undefined) => ({
    selector: { orgId, ...(window ? { startsAt: { $gte: window.from, $lt: window.to } } : {}) },
  });
  const shown = within(windows?.shown);
  const occurrencesQuery = useLiveQuery(db, 'occurrences', shown, 'calendar shown range');
  // The ranges either side are read once the shown one has answered, so they never hold it up
  // (until the calendar says its range, on its first render, the shown read is everything).
  // The range after first (Next is the way a calendar is mostly walked), the one before once
  // that has answered: one read at a time has IndexedDB and the main thread to itself.
  const around = windows && occurrencesQuery.answers === JSON.stringify(shown) ? db : null;
  const after = within(windows?.after);
  // Their answers are applied as transitions: a click on Next or Previous that comes while one
  // is being drawn in (the calendar takes the new documents) goes first, and the read-ahead
  // render is finished after it.
  const afterQuery = useLiveQuery(
    around,
    'occurrences',
    after,
    'calendar range after',
    'background',
  );
  const before = within(windows?.before);
  const beforeQuery = useLiveQuery(
    around && afterQuery.answers === JSON.stringify(after) ? around : null,
    'occurrences',
    before,
    'calendar range before',
    'background',
  );
  // What the calendar holds: the three reads' answers, kept as one list that changes only when
  // there is something new to draw (documentsToHold) — a move's three answers then give
  // FullCalendar one new list, when the range ahead first answers, instead of three.
  const [documents, setDocuments] = useState<ReadonlyArray<ReplicaDocument<OccurrenceDoc>>>([]);
  const afterKey = JSON.stringify(after);
  const beforeKey = JSON.stringify(before);
  const shownKey = JSON.stringify(shown);
  const hold = useMemo(
    () =>
      windows
        ? documentsToHold(documents, [
            {
              window: windows.before,
              documents: beforeQuery.documents,
              answered: beforeQuery.answers === beforeKey,
            },
            {
              window: windows.shown,
              documents: occurrencesQuery.documents,
              answered: occurrencesQuery.answers === shownKey,
            },
            {
              window: windows.after,
              documents: afterQuery.documents,
              answered: afterQuery.answers === afterKey,
            },
          ])
        : // Until the calendar says its range, the shown read is everything.
          sameDocuments(documents, occurrencesQuery.documents)
          ? documents
          : occurrencesQuery.documents,
    [documents, windows, beforeQuery, occurrencesQuery, afterQuery, beforeKey, shownKey, afterKey],
  );
  if (hold !== documents) setDocuments(hold);
  const classesQuery = useLiveQuery(db, 'classes', { selector: { orgId } });
  const productsQuery = useLiveQuery(db, 'products', { selector: { orgId } });
  const coaches = useQuery({
    queryKey: ['schedule', orgId, 'coaches'],
    queryFn: ({ signal }) => getCoaches(signal),
    enabled: online,
    staleTime: 60_000,
  });
  const [editing, setEditing] = useState<Editing | null>(null);
  const [openId, setOpenId] = useState<string | null>(null);

  // Each class time parsed once per revision: a month's move hands over ~3,600 documents, most
  // of them drawn before (parsing them all again was the largest piece of a move in a profile).
  const occurrences = useMemo(() => parsedDocuments(occurrenceDocSchema, documents), [documents]);
  const classes = useMemo(
    () => new Map(parsedDocuments(classDocSchema, classesQuery.documents).map((c) => [c.id, c])),
    [classesQuery.documents],
  );
  const catalogue = useMemo(
    () => parsedDocuments(productDocSchema, productsQuery.documents),
    [productsQuery.documents],
  );
  const memberships = catalogue
    .filter((p) => p.type === 'recurring')
    .map((p) => ({ id: p.id, name: p.name }));
  const groups = catalogue.flatMap((p) =>
    p.punchCardConfiguration.groups.map((g) => ({ id: g.id, name: `${g.name} (${p.name})` })),
  );
  const coachChoices = (coaches.data?.coaches ?? []).map((c) => ({ id: c.userId, name: c.name }));

  // Everything read is handed over (the calendar draws what falls in its range): the next or
  // previous range is drawn at once, in one pass, from documents already in hand. The events are
  // built again only when the class times or the view's kind change: FullCalendar takes a new
  // list as a new event source and parses every event again, so a render for anything else (a
  // panel opening, the clock's minute, a read answering with what is already drawn) hands it
  // the same list.
  const month = range?.view === 'dayGridMonth';
  const events = useMemo(
    () => eventsOf(occurrences, timeZone, month),
    [occurrences, timeZone, month],
  );
  const open = occurrences.find((o) => o.id === openId) ?? null;
  const now = useNow(60_000);
  const today = dayKeyOf(now.getTime(), timeZone);

  const startNew = useCallback(
    (day: string, time?: string) =>
      setEditing({ classId: null, initial: blankClassForm(day, time) }),
    [],
  );
  // The calendar's callbacks keep their identity from render to render: FullCalendar refines
  // its options again whenever one of them is a new function.
  const datesSet = useCallback(
    (info: DatesSetInfo) =>
      setRange((current) => {
        const next = {
          from: info.start.toISOString(),
          to: info.end.toISOString(),
          view: info.view.type,
        };
        return current &&
          current.from === next.from &&
          current.to === next.to &&
          current.view === next.view
          ? current
          : next;
      }),
    [],
  );
  const eventClick = useCallback((info: EventClickInfo) => {
    info.jsEvent.preventDefault();
    // '+N more' on a busy day of the month opens that day.
    if (info.event.id.startsWith('more:'))
      calendar.current?.getApi().changeView('timeGridDay', info.event.id.slice(5));
    else setOpenId(info.event.id);
  }, []);
  const dateClick = useCallback(
    (info: DateClickInfo) => {
      if (!online) return;
      const wall = wallInputOf(info.date.toISOString(), timeZone);
      const [day = today, time] = wall.split('T');
      startNew(day, info.allDay ? undefined : time);
    },
    [online, timeZone, today, startNew],
  );
  // A phone gets the list: seven narrow columns hide the titles (read once: it is the first view).
  const [initialView] = useState(() =>
    window.matchMedia('(max-width: 40rem)').matches ? 'listWeek' : 'timeGridWeek',
  );

  return (
    <section className="page schedule-page">
      <div className="page-header">
        <h1>Schedule</h1>
        <button
          type="button"
          className="button"
          disabled={!online}
          onClick={() => startNew(addDays(today, 1))}
        >
          New class or event
        </button>
      </div>
      {!online && (
        <p className="field-hint" role="status">
          You are offline: the calendar and rosters show what this device holds, and check-ins are
          sent when you are back online. Adding or changing classes needs a connection.
        </p>
      )}
      {db && occurrencesQuery.status === 'loading' && range === null ? (
        <p role="status">Loading the calendar…</p>
      ) : null}
      {occurrencesQuery.status === 'ready' && classes.size === 0 && (
        <div className="empty-state" role="note">
          <h2>No classes yet</h2>
          <p>
            Add your first class or event: once or every week, with a capacity and what pays for a
            place.
          </p>
        </div>
      )}
      <div className="schedule-calendar">
        <FullCalendar
          ref={calendar}
          plugins={plugins}
          initialView={initialView}
          timeZone={timeZone}
          firstDay={1}
          height="auto"
          slotMinTime="05:00:00"
          slotMaxTime="23:00:00"
          nowIndicator
          // A busy month draws a few a day and '+N more' (opening the day): a month of 800 class
          // times is drawn as ~100 events, and stays quick.
          dayMaxEvents={false}
          eventOrder="last,start,-duration,allDay,title"
          headerToolbar={headerToolbar}
          // On a phone the title and the list's class names wrap (schedule.css) rather than
          // run past the screen or lose their places count.
          toolbarSectionClass={toolbarSectionClass}
          toolbarTitleClass="schedule-toolbar-title"
          listItemEventTitleClass="schedule-list-title"
          buttons={buttons}
          events={events}
          datesSet={datesSet}
          eventClick={eventClick}
          dateClick={dateClick}
        />
      </div>
      <BookingSettingsForm orgId={orgId} />
      <AppointmentTypes db={db} orgId={orgId} products={memberships} groups={groups} />
      <StaffHours db={db} orgId={orgId} timeZone={timeZone} />
      {editing && (
        <ClassDialog
          classId={editing.classId}
          initial={editing.initial}
          timeZone={timeZone}
          coaches={coachChoices}
          products={memberships}
          groups={groups}
          onClose={() => setEditing(null)}
        />
      )}
      {open && db && (
        <OccurrencePanel
          db={db}
          occurrence={open}
          timeZone={timeZone}
          renderCustomerPicker={renderCustomerPicker}
          onEditSeries={
            open.classId && classes.get(open.classId)
              ? () => {
                  const series = classes.get(open.classId ?? '')!;
                  setOpenId(null);
                  setEditing({ classId: series.id, initial: classFormOf(series) });
                }
              : null
          }
          onClose={() => setOpenId(null)}
        />
      )}
    </section>
  );
}
