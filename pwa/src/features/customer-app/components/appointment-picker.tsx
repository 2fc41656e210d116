import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import type { Holdings } from '@platform/schema/bookings/booking.rules';
import type { BookingDoc } from '@platform/schema/bookings/booking.zod';
import type {
  AppointmentTypeDoc,
  AvailabilityDoc,
} from '@platform/schema/schedule/appointments.zod';
import type { OccurrenceDoc } from '@platform/schema/schedule/schedule.zod';
import { dayKeyOf, type Range } from '@platform/schema/time-tracking/org-calendar';
import { Modal } from '../../../components/modal.tsx';
import { useToast } from '../../../components/toast/toast-context.ts';
import type { AccountDatabase } from '../../../db/database.ts';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { useOrgFormat } from '../../../lib/use-org-format.ts';
import { saveDocument } from '../../../sync/local-writes.ts';
import { appointmentRequest, slotsOfType, type StaffSlots } from '../appointment-view.ts';
import { paymentHint } from '../schedule-view.ts';
import { PlacePayment } from './place-payment.tsx';

export const appointmentTexts = {
  heading: 'Appointments',
  none: 'No free times this week. Try the next week.',
  saved: 'Appointment request saved. It is confirmed when the organization answers.',
  choose: 'Choose a time',
} as const;

type Person = { id: string; name: string; self: boolean };

/**
 * The organisation's appointment types with their free times in the week shown, from the
 * replica (types, staff hours, class times) — offline too. Picking a time writes a request on
 * the device with a class-time id of its own; the server books the slot or refuses it in words.
 */
export function AppointmentPicker({
  db,
  orgId,
  types,
  hours,
  occurrences,
  bookings,
  person,
  holdings,
  groupNames,
  week,
  now,
  shopPath,
}: {
  db: AccountDatabase;
  orgId: string;
  types: readonly AppointmentTypeDoc[];
  hours: readonly AvailabilityDoc[];
  occurrences: readonly OccurrenceDoc[];
  bookings: readonly BookingDoc[];
  person: Person;
  holdings: Holdings;
  groupNames: ReadonlyMap<string, string>;
  week: Range;
  now: number;
  shopPath: string;
}) {
  const format = useOrgFormat();
  const [picking, setPicking] = useState<{ type: AppointmentTypeDoc; staff: StaffSlots[] } | null>(
    null,
  );
  const byId = useMemo(() => new Map(types.map((t) => [t.id, t])), [types]);
  const offered = useMemo(
    () =>
      types.map((type) => ({
        type,
        staff: slotsOfType({
          type,
          hours,
          occurrences,
          asked: bookings,
          types: byId,
          window: week,
          now,
        }),
      })),
    [types, hours, occurrences, bookings, byId, week, now],
  );
  if (types.length === 0) return null;
  return (
    <section aria-labelledby="appointments-heading">
      <h2 id="appointments-heading">{appointmentTexts.heading}</h2>
      <ul className="shop-list">
        {offered.map(({ type, staff }) => {
          const hint = paymentHint(type, holdings, groupNames);
          const free = staff.reduce((n, s) => n + s.slots.length, 0);
          return (
            <li key={type.id} className="shop-item" data-appointment-type={type.id}>
              <h3>{type.title}</h3>
              <p>
                {type.durationMinutes} minutes
                {type.location && ` · ${type.location}`}
                {staff.length > 0 && ` · with ${staff.map((s) => s.staffName).join(', ')}`}
              </p>
              {type.description && <p className="field-hint">{type.description}</p>}
              <p className="field-hint">
                {free === 0 ? appointmentTexts.none : `${free} free times this week`}
                {` · ${hint.text}`}
              </p>
              {!hint.bookable ? (
                <Link className="button button-secondary" to={shopPath}>
                  See the Shop
                </Link>
              ) : (
                free > 0 && (
                  <button
                    type="button"
                    className="button"
                    aria-label={`${appointmentTexts.choose}: ${type.title}`}
                    onClick={() => setPicking({ type, staff })}
                  >
                    {appointmentTexts.choose}
                  </button>
                )
              )}
            </li>
          );
        })}
      </ul>
      {picking && (
        <SlotDialog
          db={db}
          orgId={orgId}
          type={picking.type}
          staff={picking.staff}
          person={person}
          hint={paymentHint(picking.type, holdings, groupNames)}
          dayOf={(at) => dayKeyOf(at, picking.type.timeZone)}
          format={format}
          onClose={() => setPicking(null)}
        />
      )}
    </section>
  );
}

function SlotDialog({
  db,
  orgId,
  type,
  staff,
  person,
  hint,
  dayOf,
  format,
  onClose,
}: {
  db: AccountDatabase;
  orgId: string;
  type: AppointmentTypeDoc;
  staff: StaffSlots[];
  person: Person;
  hint: ReturnType<typeof paymentHint>;
  dayOf: (at: number) => string;
  format: ReturnType<typeof useOrgFormat>;
  onClose: () => void;
}) {
  const online = useOnlineStatus();
  const toast = useToast();
  const withTimes = staff.filter((s) => s.slots.length > 0);
  const [staffId, setStaffId] = useState(withTimes[0]?.staffUserId ?? '');
  const chosenStaff = withTimes.find((s) => s.staffUserId === staffId) ?? withTimes[0];
  const byDay = new Map<string, number[]>();
  for (const slot of chosenStaff?.slots ?? []) {
    const key = dayOf(slot.from);
    byDay.set(key, [...(byDay.get(key) ?? []), slot.from]);
  }
  const days = [...byDay];
  const [day, setDay] = useState<string | null>(null);
  const shownDay = days.find(([d]) => d === day) ?? days[0];
  const [start, setStart] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const who = person.self ? 'you' : person.name;

  // Named when the dialog opens: a payment made for this appointment is for these ids.
  const [ids] = useState(() => ({ id: crypto.randomUUID(), occurrenceId: crypto.randomUUID() }));
  const write = async () => {
    if (start === null || !chosenStaff) return;
    await saveDocument(
      db,
      'bookings',
      appointmentRequest({
        ...ids,
        orgId,
        personId: person.id,
        personName: person.name,
        typeId: type.id,
        staffUserId: chosenStaff.staffUserId,
        startsAt: start,
        now: new Date(),
      }),
    );
    toast.success(appointmentTexts.saved);
    onClose();
  };
  const confirm = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await write();
    } catch {
      setFailure('The request could not be saved on this device. Try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={`Book ${type.title}`}>
      <div className="checkout appointment-picker">
        <p>
          {type.durationMinutes} minutes, for <strong>{who}</strong>. {hint.text}
        </p>
        {withTimes.length > 1 && (
          <label className="field">
            <span>With</span>
            <select
              value={chosenStaff?.staffUserId ?? ''}
              onChange={(event) => {
                setStaffId(event.target.value);
                setDay(null);
                setStart(null);
              }}
            >
              {withTimes.map((s) => (
                <option key={s.staffUserId} value={s.staffUserId}>
                  {s.staffName}
                </option>
              ))}
            </select>
          </label>
        )}
        <div className="slot-days" role="group" aria-label="Day">
          {days.map(([d]) => (
            <button
              key={d}
              type="button"
              className={`button button-secondary${d === shownDay?.[0] ? ' is-selected' : ''}`}
              aria-pressed={d === shownDay?.[0]}
              onClick={() => {
                setDay(d);
                setStart(null);
              }}
            >
              {format.shortDay(d)}
            </button>
          ))}
        </div>
        <div className="slot-times" role="group" aria-label="Time">
          {(shownDay?.[1] ?? []).map((at) => (
            <button
              key={at}
              type="button"
              className={`button button-secondary${at === start ? ' is-selected' : ''}`}
              aria-pressed={at === start}
              onClick={() => setStart(at)}
            >
              {format.time(new Date(at).toISOString())}
            </button>
          ))}
        </div>
        {hint.payMinor !== null ? (
          <PlacePayment
            orgId={orgId}
            priceMinor={hint.payMinor}
            currency={type.currency}
            place={
              start !== null && chosenStaff
                ? {
                    bookingId: ids.id,
                    customerUserId: person.id,
                    occurrenceId: ids.occurrenceId,
                    appointment: {
                      typeId: type.id,
                      staffUserId: chosenStaff.staffUserId,
                      startsAt: new Date(start).toISOString(),
                    },
                  }
                : null
            }
            ready={start !== null}
            onPaid={write}
            onCancel={onClose}
          />
        ) : (
          <>
            {!online && (
              <p className="field-hint" role="status">
                You are offline: the request is kept on this device and sent when you are back
                online. If someone takes this time first, you are told and can pick another.
              </p>
            )}
          </>
        )}
        {failure && (
          <p className="form-error" role="alert">
            {failure}
          </p>
        )}
        {hint.payMinor === null && (
          <div className="button-row">
            <button
              type="button"
              className="button"
              onClick={() => void confirm()}
              disabled={busy || start === null}
              aria-busy={busy || undefined}
            >
              {start === null
                ? 'Pick a time'
                : `Book ${format.dateTime(new Date(start).toISOString())}`}
            </button>
            <button type="button" className="button button-secondary" onClick={onClose}>
              Not now
            </button>
          </div>
        )}
      </div>
    </Modal>
  );
}
