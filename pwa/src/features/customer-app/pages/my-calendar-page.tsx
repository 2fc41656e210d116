import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { bookingDocSchema, type BookingDoc } from '@platform/schema/bookings/booking.zod';
import { bookingMessages } from '@platform/schema/bookings/booking.rules';
import { creditDocSchema } from '@platform/schema/payments/credit-doc.zod';
import { productDocSchema } from '@platform/schema/payments/product-doc.zod';
import { purchaseDocSchema } from '@platform/schema/payments/purchase-docs.zod';
import { rosterItemDocSchema } from '@platform/schema/roster/roster-item.zod';
import {
  appointmentTypeDocSchema,
  availabilityDocSchema,
} from '@platform/schema/schedule/appointments.zod';
import {
  classDocSchema,
  occurrenceDocSchema,
  type OccurrenceDoc,
} from '@platform/schema/schedule/schedule.zod';
import {
  addDays,
  dayKeyOf,
  mondayOf,
  startOfDay,
} from '@platform/schema/time-tracking/org-calendar';
import { parsedDocuments } from '../../../db/parsed-documents.ts';
import { useLiveQuery } from '../../../db/use-live-query.ts';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { useNow } from '../../../lib/use-now.ts';
import { useOrgFormat } from '../../../lib/use-org-format.ts';
import { useAccountSync } from '../../../sync/sync-context.tsx';
import { BookDialog, type BookChoice } from '../components/book-dialog.tsx';
import { AddToCalendar } from '../components/add-to-calendar.tsx';
import { AppointmentPicker } from '../components/appointment-picker.tsx';
import { askedAppointmentTime } from '../appointment-view.ts';
import { BookingActions } from '../components/booking-actions.tsx';
import { CalendarFeed } from '../components/calendar-feed.tsx';
import { ReplicaLoading } from '../../../components/replica-loading.tsx';
import { EmptyState } from '../components/empty-state.tsx';
import {
  activeBookingOf,
  bookingState,
  bookingTexts,
  holdingsOf,
  paymentHint,
  placesLabel,
} from '../schedule-view.ts';
import { useCustomerApp } from '../use-customer-app.ts';

/**
 * My calendar (issue 16): the family's bookings and the organisation's classes, from the
 * device's replica — on a train too. Booking writes a request on the device; the server's answer
 * (a place, the waitlist, or a refusal with its reason) replicates back and shows here.
 */
export function MyCalendarPage() {
  const { orgId, orgName, home, user } = useCustomerApp();
  const db = useAccountSync().sync?.db ?? null;
  const scope = orgId ?? user.org?.id ?? '';
  const online = useOnlineStatus();
  const format = useOrgFormat();
  const timeZone = user.org?.timezone ?? 'UTC';
  const now = useNow(60_000);
  const today = dayKeyOf(now.getTime(), timeZone);
  const [week, setWeek] = useState(() => mondayOf(today));
  const weekFrom = startOfDay(week, timeZone);
  const weekTo = startOfDay(addDays(week, 7), timeZone);

  const bookingsQuery = useLiveQuery(db, 'bookings', { selector: { orgId: scope } });
  const occurrencesQuery = useLiveQuery(db, 'occurrences', {
    selector: {
      orgId: scope,
      startsAt: { $gte: new Date(weekFrom).toISOString(), $lt: new Date(weekTo).toISOString() },
    },
    sort: [{ startsAt: 'asc' }],
  });
  const classesQuery = useLiveQuery(db, 'classes', { selector: { orgId: scope } });
  const rosterQuery = useLiveQuery(db, 'roster', { selector: { orgId: scope } });
  const purchasesQuery = useLiveQuery(db, 'purchases', { selector: { orgId: scope } });
  const creditsQuery = useLiveQuery(db, 'credits', { selector: { orgId: scope } });
  const productsQuery = useLiveQuery(db, 'products', { selector: { orgId: scope } });
  const typesQuery = useLiveQuery(db, 'appointment-types', { selector: { orgId: scope } });
  const hoursQuery = useLiveQuery(db, 'availability', { selector: { orgId: scope } });

  const bookings = useMemo(
    () => parsedDocuments(bookingDocSchema, bookingsQuery.documents),
    [bookingsQuery.documents],
  );
  const weekTimes = useMemo(
    () => parsedDocuments(occurrenceDocSchema, occurrencesQuery.documents),
    [occurrencesQuery.documents],
  );
  // Classes and events: appointments (anyone's) are the staff member's busy time, not a class;
  // the family's own show under Your bookings.
  const weekOccurrences = useMemo(
    () =>
      weekTimes.filter(
        (o) =>
          o.kind !== 'appointment' &&
          (o.status === 'scheduled' || bookings.some((b) => b.occurrenceId === o.id)),
      ),
    [weekTimes, bookings],
  );
  const types = useMemo(
    () => parsedDocuments(appointmentTypeDocSchema, typesQuery.documents),
    [typesQuery.documents],
  );
  const hours = useMemo(
    () => parsedDocuments(availabilityDocSchema, hoursQuery.documents),
    [hoursQuery.documents],
  );
  const classes = useMemo(
    () => new Map(parsedDocuments(classDocSchema, classesQuery.documents).map((c) => [c.id, c])),
    [classesQuery.documents],
  );
  const userId = user.id;
  const userName = user.fullName;
  const family = useMemo(() => {
    const people = new Map<string, string>([[userId, userName]]);
    for (const item of parsedDocuments(rosterItemDocSchema, rosterQuery.documents))
      people.set(item.athlete.id, item.athlete.id === userId ? userName : item.athlete.fullName);
    return [...people].map(([id, name]) => ({ id, name, self: id === userId }));
  }, [rosterQuery.documents, userId, userName]);
  const purchases = useMemo(
    () => parsedDocuments(purchaseDocSchema, purchasesQuery.documents),
    [purchasesQuery.documents],
  );
  const credits = useMemo(
    () => parsedDocuments(creditDocSchema, creditsQuery.documents),
    [creditsQuery.documents],
  );
  const groupNames = useMemo(() => {
    const names = new Map<string, string>();
    for (const product of parsedDocuments(productDocSchema, productsQuery.documents))
      for (const group of product.punchCardConfiguration.groups) names.set(group.id, group.name);
    for (const credit of credits) names.set(credit.groupId, credit.groupName);
    return names;
  }, [productsQuery.documents, credits]);

  const [personId, setPersonId] = useState(user.id);
  const person = family.find((p) => p.id === personId) ?? family[0]!;
  const holdings = useMemo(
    () => holdingsOf(person.id, purchases, credits, today),
    [person.id, purchases, credits, today],
  );
  const [choice, setChoice] = useState<BookChoice | null>(null);

  // The family's bookings on class times this device holds, upcoming first.
  const allOccurrences = useLiveQuery(db, 'occurrences', {
    selector: { orgId: scope, id: { $in: [...new Set(bookings.map((b) => b.occurrenceId))] } },
  });
  const bookedTimes = useMemo(
    () =>
      new Map(parsedDocuments(occurrenceDocSchema, allOccurrences.documents).map((o) => [o.id, o])),
    [allOccurrences.documents],
  );
  const typesById = new Map(types.map((t) => [t.id, t]));
  const staffNames = new Map(hours.map((h) => [h.userId, h.staffName]));
  const yours = bookings
    .flatMap((booking) => {
      // An appointment asked for before its class time arrives here: its own request stands in.
      const occurrence =
        bookedTimes.get(booking.occurrenceId) ??
        (booking.appointment
          ? askedAppointmentTime(
              booking,
              typesById.get(booking.appointment.typeId),
              staffNames.get(booking.appointment.staffUserId) ?? null,
            )
          : undefined);
      return occurrence && Date.parse(occurrence.endsAt) > now.getTime() - 86_400_000
        ? [{ booking, occurrence }]
        : [];
    })
    .sort((a, b) => a.occurrence.startsAt.localeCompare(b.occurrence.startsAt));
  const nameOf = (id: string) => family.find((p) => p.id === id)?.name ?? 'Family member';
  // Whether this person's place on this class time would be paid by card (nothing held pays).
  const paidByCard = (booking: BookingDoc, occurrence: OccurrenceDoc) => {
    const series = occurrence.classId ? classes.get(occurrence.classId) : undefined;
    if (!series) return false;
    const held = holdingsOf(booking.customerUserId, purchases, credits, today);
    return paymentHint(series, held, groupNames).payMinor !== null;
  };
  const shopPath = `${home}/shop`;
  const loading =
    db !== null && (bookingsQuery.status === 'loading' || occurrencesQuery.status === 'loading');

  const days = useMemo(() => {
    const byDay = new Map<string, OccurrenceDoc[]>();
    for (const occurrence of weekOccurrences) {
      const day = dayKeyOf(Date.parse(occurrence.startsAt), timeZone);
      byDay.set(day, [...(byDay.get(day) ?? []), occurrence]);
    }
    return [...byDay].sort(([a], [b]) => a.localeCompare(b));
  }, [weekOccurrences, timeZone]);

  return (
    <section className="page my-calendar">
      <h1>My calendar</h1>
      {!online && (
        <p className="offline-note" role="status">
          {bookingTexts.offline}
        </p>
      )}
      {loading ? (
        <ReplicaLoading what="your calendar" />
      ) : (
        <>
          <section aria-labelledby="your-bookings">
            <h2 id="your-bookings">Your bookings</h2>
            {yours.length === 0 ? (
              <p className="field-hint">
                Nothing booked yet. Classes and events you or your children book with{' '}
                {orgName ?? 'your organization'} appear here.
              </p>
            ) : (
              <ul className="shop-list" aria-label="Your bookings">
                {yours.map(({ booking, occurrence }) => {
                  const state = bookingState(booking, online);
                  return (
                    <li
                      key={booking.id}
                      className="shop-item booking-item"
                      data-booking-status={booking.status}
                    >
                      <h3>{occurrence.title}</h3>
                      <p>
                        {format.dateTime(occurrence.startsAt)}
                        {occurrence.location && ` · ${occurrence.location}`}
                        {occurrence.kind === 'appointment' &&
                          occurrence.coachName &&
                          ` · with ${occurrence.coachName}`}
                      </p>
                      <p className="field-hint">For {nameOf(booking.customerUserId)}</p>
                      <p className={`booking-state booking-state-${state.tone}`}>
                        <strong>{state.label}</strong>
                        {occurrence.status === 'cancelled' &&
                          ` · ${bookingMessages.classCancelled}`}
                      </p>
                      {booking.status === 'refused' && booking.refusal && (
                        <p className="form-error">{booking.refusal}</p>
                      )}
                      {booking.status === 'booked' && (
                        <p className="field-hint">
                          {booking.paidWith === 'card'
                            ? `Paid by card: cancel until ${format.dateTime(occurrence.cancelBy)} and the money goes back to it`
                            : `Cancel until ${format.dateTime(occurrence.cancelBy)}`}
                        </p>
                      )}
                      {db && (
                        <BookingActions
                          db={db}
                          booking={booking}
                          occurrence={occurrence}
                          now={now}
                          paidByCard={paidByCard(booking, occurrence)}
                        />
                      )}
                      {['booked', 'waitlisted', 'attended'].includes(booking.status) && (
                        <AddToCalendar
                          booking={booking}
                          occurrence={occurrence}
                          orgName={orgName ?? 'Bookings'}
                        />
                      )}
                    </li>
                  );
                })}
              </ul>
            )}
          </section>

          <section aria-labelledby="classes-heading">
            <h2 id="classes-heading">Classes and events</h2>
            {family.length > 1 && (
              <label className="field">
                <span>Booking for</span>
                <select value={person.id} onChange={(event) => setPersonId(event.target.value)}>
                  {family.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.self ? `${p.name} (you)` : p.name}
                    </option>
                  ))}
                </select>
              </label>
            )}
            <div className="button-row" role="group" aria-label="Week">
              <button
                type="button"
                className="button button-secondary"
                onClick={() => setWeek(addDays(week, -7))}
                disabled={week <= mondayOf(today)}
              >
                Previous week
              </button>
              <p className="week-label" aria-live="polite">
                {format.dayRange(week, addDays(week, 6))}
              </p>
              <button
                type="button"
                className="button button-secondary"
                onClick={() => setWeek(addDays(week, 7))}
              >
                Next week
              </button>
            </div>
            {days.length === 0 ? (
              <EmptyState
                title="No classes this week"
                action={{ label: 'Back to the dashboard', to: home }}
              >
                {orgName ?? 'Your organization'} has nothing on the timetable this week. Try the
                next week.
              </EmptyState>
            ) : (
              days.map(([day, list]) => (
                <section key={day} aria-label={format.day(day)} className="schedule-day">
                  <h3>{format.day(day)}</h3>
                  <ul className="shop-list">
                    {list.map((occurrence) => {
                      const series = occurrence.classId
                        ? classes.get(occurrence.classId)
                        : undefined;
                      const places = placesLabel(occurrence);
                      const hint = series ? paymentHint(series, holdings, groupNames) : null;
                      const held = activeBookingOf(bookings, occurrence.id, person.id);
                      const started = Date.parse(occurrence.startsAt) <= now.getTime();
                      return (
                        <li
                          key={occurrence.id}
                          className="shop-item"
                          data-occurrence={occurrence.id}
                        >
                          <h4>{occurrence.title}</h4>
                          <p>
                            {format.time(occurrence.startsAt)}–{format.time(occurrence.endsAt)}
                            {occurrence.location && ` · ${occurrence.location}`}
                            {occurrence.coachName && ` · with ${occurrence.coachName}`}
                          </p>
                          {occurrence.status === 'cancelled' ? (
                            <p className="form-error">{bookingMessages.classCancelled}</p>
                          ) : (
                            <>
                              <p className="field-hint">
                                {places.text}
                                {hint && ` · ${hint.text}`}
                              </p>
                              {held ? (
                                <p className="booking-state">
                                  <strong>{bookingState(held, online).label}</strong> for{' '}
                                  {person.self ? 'you' : person.name}
                                </p>
                              ) : (
                                !started &&
                                (hint && !hint.bookable ? (
                                  <Link className="button button-secondary" to={shopPath}>
                                    See the Shop
                                  </Link>
                                ) : hint?.payMinor != null && places.full ? (
                                  // A paid place never waits holding the money (decision 0070).
                                  <p className="field-hint">{bookingMessages.full}</p>
                                ) : (
                                  <button
                                    type="button"
                                    className="button"
                                    aria-label={`${places.full ? bookingTexts.joinWaitlist : 'Book'}: ${occurrence.title}, ${format.dateTime(occurrence.startsAt)}`}
                                    onClick={() =>
                                      setChoice({
                                        occurrence,
                                        person,
                                        full: places.full,
                                        hint: hint?.text ?? '',
                                        pay:
                                          hint?.payMinor != null && series
                                            ? {
                                                priceMinor: hint.payMinor,
                                                currency: series.currency,
                                              }
                                            : null,
                                      })
                                    }
                                  >
                                    {places.full ? bookingTexts.joinWaitlist : 'Book'}
                                  </button>
                                ))
                              )}
                            </>
                          )}
                        </li>
                      );
                    })}
                  </ul>
                </section>
              ))
            )}
          </section>
          {db && (
            <AppointmentPicker
              db={db}
              orgId={scope}
              types={types}
              hours={hours}
              occurrences={weekTimes}
              bookings={bookings}
              person={person}
              holdings={holdings}
              groupNames={groupNames}
              week={{ from: weekFrom, to: weekTo }}
              now={now.getTime()}
              shopPath={shopPath}
            />
          )}
        </>
      )}
      {scope && <CalendarFeed orgId={scope} />}
      {choice && db && (
        <BookDialog db={db} orgId={scope} choice={choice} onClose={() => setChoice(null)} />
      )}
    </section>
  );
}
