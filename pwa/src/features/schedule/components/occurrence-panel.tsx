import { useState, type ReactNode } from 'react';
import { bookingDocSchema, type BookingDoc } from '@platform/schema/bookings/booking.zod';
import { waitlistOrder } from '@platform/schema/bookings/booking.rules';
import type { OccurrenceDoc } from '@platform/schema/schedule/schedule.zod';
import { wallInputOf } from '@platform/schema/time-tracking/org-calendar';
import { FormNotice } from '../../../components/form-notice.tsx';
import { TextField } from '../../../components/form-fields.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useToast } from '../../../components/toast/toast-context.ts';
import type { AccountDatabase } from '../../../db/database.ts';
import { useLiveQuery } from '../../../db/use-live-query.ts';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { useNow } from '../../../lib/use-now.ts';
import { failureText } from '../../../lib/request-failure.ts';
import { useOrgFormat } from '../../../lib/use-org-format.ts';
import { saveDocument } from '../../../sync/local-writes.ts';
import { editOccurrence } from '../api/schedule.ts';
import { rosterStatus } from '../roster.ts';

export type PickedCustomer = { userId: string; name: string };
/** The CRM's customer picker, composed in by app/pages (features never import each other). */
export type RenderCustomerPicker = (onPicked: (customer: PickedCustomer) => void) => ReactNode;

/**
 * One class time: its details, changing or cancelling this time alone, the whole series, and
 * its roster — booked, waiting (in order), checked in, no-show. Check-ins, no-shows and
 * removals are written on this device (also offline) and sent; adding someone is a request
 * the server answers like a customer's.
 */
export function OccurrencePanel({
  db,
  occurrence,
  timeZone,
  onEditSeries,
  renderCustomerPicker,
  onClose,
}: {
  db: AccountDatabase;
  occurrence: OccurrenceDoc;
  timeZone: string;
  onEditSeries: (() => void) | null;
  renderCustomerPicker: RenderCustomerPicker;
  onClose: () => void;
}) {
  const format = useOrgFormat();
  const toast = useToast();
  const online = useOnlineStatus();
  const bookingsQuery = useLiveQuery(db, 'bookings', {
    selector: { occurrenceId: occurrence.id },
  });
  const bookings = bookingsQuery.documents.flatMap((doc) => {
    const parsed = bookingDocSchema.safeParse(doc);
    return parsed.success ? [parsed.data] : [];
  });
  const placed = bookings
    .filter((b) => ['booked', 'attended', 'no-show', 'requested'].includes(b.status))
    .sort((a, b) => a.customerName.localeCompare(b.customerName));
  const waiting = bookings.filter((b) => b.status === 'waitlisted').sort(waitlistOrder);
  const gone = bookings.filter((b) => b.status === 'cancelled' || b.status === 'refused');
  const [editing, setEditing] = useState(false);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const now = useNow(60_000);
  const past = Date.parse(occurrence.endsAt) <= now.getTime();

  const setStatus = async (booking: BookingDoc, status: BookingDoc['status'], saved: string) => {
    try {
      await saveDocument(db, 'bookings', { ...booking, status });
      toast.success(saved);
    } catch {
      toast.error('The change could not be saved on this device. Try again.');
    }
  };
  const add = async (customer: PickedCustomer) => {
    const at = new Date().toISOString();
    try {
      await saveDocument(db, 'bookings', {
        id: crypto.randomUUID(),
        orgId: occurrence.orgId,
        customerUserId: customer.userId,
        customerName: customer.name,
        occurrenceId: occurrence.id,
        status: 'requested',
        appointment: null,
        joinWaitlist: true,
        paidWith: null,
        refusal: null,
        requestedAt: at,
        decidedAt: null,
        checkedInAt: null,
        updatedAt: at,
      });
      toast.success(`${customer.name} added; the place is confirmed when the server answers.`);
    } catch {
      toast.error('The booking could not be saved on this device. Try again.');
    }
  };
  const cancelTime = async () => {
    setRefusal(null);
    try {
      await editOccurrence(occurrence.id, { cancelled: true });
      toast.success(
        `${occurrence.title} on ${format.dateTime(occurrence.startsAt)} cancelled; everyone booked is told.`,
      );
      onClose();
    } catch (error) {
      setRefusal(failureText(error, 'Cancelling this time'));
    }
  };

  const row = (booking: BookingDoc) => (
    <li key={booking.id} className="roster-row">
      <span className="roster-name">{booking.customerName || 'Customer'}</span>
      <span className={`roster-status roster-status-${booking.status}`}>
        {rosterStatus(booking)}
      </span>
      <span className="button-row">
        {booking.status === 'booked' && (
          <>
            <button
              type="button"
              className="button"
              onClick={() =>
                void setStatus(booking, 'attended', `${booking.customerName} checked in.`)
              }
            >
              Check in<span className="visually-hidden"> {booking.customerName}</span>
            </button>
            <button
              type="button"
              className="button button-secondary"
              onClick={() =>
                void setStatus(booking, 'no-show', `${booking.customerName} marked as a no-show.`)
              }
            >
              No-show<span className="visually-hidden"> {booking.customerName}</span>
            </button>
          </>
        )}
        {(booking.status === 'attended' || booking.status === 'no-show') && (
          <button
            type="button"
            className="button button-secondary"
            onClick={() =>
              void setStatus(booking, 'booked', `${booking.customerName} back to booked.`)
            }
          >
            Undo<span className="visually-hidden"> {booking.customerName}</span>
          </button>
        )}
        {['booked', 'waitlisted', 'requested'].includes(booking.status) && (
          <button
            type="button"
            className="button button-secondary"
            onClick={() => void setStatus(booking, 'cancelled', `${booking.customerName} removed.`)}
          >
            Remove<span className="visually-hidden"> {booking.customerName}</span>
          </button>
        )}
      </span>
    </li>
  );

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={occurrence.title}
      description={`${format.dateTime(occurrence.startsAt)}–${format.time(occurrence.endsAt)}`}
    >
      <div className="occurrence-panel">
        <FormNotice notice={refusal ? { tone: 'error', text: refusal } : null} />
        <p>
          {occurrence.location || 'No location'}
          {occurrence.coachName && ` · with ${occurrence.coachName}`} · {occurrence.bookedCount} of{' '}
          {occurrence.capacity} places taken
          {occurrence.waitlistCount > 0 && ` · ${occurrence.waitlistCount} waiting`}
        </p>
        {occurrence.status === 'cancelled' && <p className="form-error">This time is cancelled.</p>}
        {!past && occurrence.status === 'scheduled' && (
          <div className="button-row">
            <button
              type="button"
              className="button button-secondary"
              disabled={!online}
              onClick={() => setEditing((v) => !v)}
            >
              Change this time
            </button>
            {onEditSeries && (
              <button
                type="button"
                className="button button-secondary"
                disabled={!online}
                onClick={onEditSeries}
              >
                Edit the whole series
              </button>
            )}
            <button
              type="button"
              className="button button-danger"
              disabled={!online}
              onClick={() => setConfirmCancel(true)}
            >
              Cancel this time
            </button>
          </div>
        )}
        {!online && (
          <p className="field-hint">
            Changing the timetable needs a connection; check-ins work offline.
          </p>
        )}
        {confirmCancel && (
          <div className="confirm-box" role="group" aria-label="Confirm cancelling">
            <p>
              Cancel {occurrence.title} on {format.dateTime(occurrence.startsAt)}? Everyone booked
              is told and credits go back.
            </p>
            <div className="button-row">
              <button
                type="button"
                className="button button-danger"
                onClick={() => void cancelTime()}
              >
                Yes, cancel this time
              </button>
              <button
                type="button"
                className="button button-secondary"
                onClick={() => setConfirmCancel(false)}
              >
                Keep it
              </button>
            </div>
          </div>
        )}
        {editing && (
          <OccurrenceEditForm
            occurrence={occurrence}
            timeZone={timeZone}
            onDone={() => setEditing(false)}
          />
        )}
        <h3>Roster</h3>
        {bookingsQuery.status === 'loading' ? (
          <p role="status">Loading the roster…</p>
        ) : placed.length === 0 && waiting.length === 0 ? (
          <p className="field-hint">Nobody booked yet.</p>
        ) : (
          <>
            <ul className="roster-list" aria-label="Booked">
              {placed.map(row)}
            </ul>
            {waiting.length > 0 && (
              <>
                <h4>Waitlist</h4>
                <ol className="roster-list" aria-label="Waitlist">
                  {waiting.map(row)}
                </ol>
              </>
            )}
          </>
        )}
        {gone.length > 0 && (
          <details>
            <summary>Cancelled or refused ({gone.length})</summary>
            <ul className="roster-list">{gone.map(row)}</ul>
          </details>
        )}
        {!past && occurrence.status === 'scheduled' && (
          <div className="roster-add">{renderCustomerPicker((customer) => void add(customer))}</div>
        )}
      </div>
    </Modal>
  );
}

function OccurrenceEditForm({
  occurrence,
  timeZone,
  onDone,
}: {
  occurrence: OccurrenceDoc;
  timeZone: string;
  onDone: () => void;
}) {
  const toast = useToast();
  const [start, setStart] = useState(wallInputOf(occurrence.startsAt, timeZone));
  const [minutes, setMinutes] = useState(
    String(Math.round((Date.parse(occurrence.endsAt) - Date.parse(occurrence.startsAt)) / 60_000)),
  );
  const [location, setLocation] = useState(occurrence.location);
  const [capacity, setCapacity] = useState(String(occurrence.capacity));
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await editOccurrence(occurrence.id, {
        start,
        durationMinutes: Number(minutes),
        location,
        capacity: Number(capacity),
      });
      toast.success('This time is changed; the series leaves it as it is now.');
      onDone();
    } catch (error) {
      setFailure(failureText(error, 'Changing this time'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <FormNotice notice={failure ? { tone: 'error', text: failure } : null} />
      <TextField
        label="Starts"
        type="datetime-local"
        value={start}
        onChange={(e) => setStart(e.target.value)}
      />
      <div className="form-row">
        <TextField
          label="Minutes"
          inputMode="numeric"
          value={minutes}
          onChange={(e) => setMinutes(e.target.value)}
        />
        <TextField
          label="Capacity"
          inputMode="numeric"
          value={capacity}
          onChange={(e) => setCapacity(e.target.value)}
        />
      </div>
      <TextField label="Location" value={location} onChange={(e) => setLocation(e.target.value)} />
      <div className="button-row">
        <button type="submit" className="button" disabled={busy} aria-busy={busy || undefined}>
          Save this time
        </button>
        <button type="button" className="button button-secondary" onClick={onDone}>
          Back
        </button>
      </div>
    </form>
  );
}
