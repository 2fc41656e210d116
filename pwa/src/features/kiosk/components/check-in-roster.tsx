import type { BookingDoc } from '@platform/schema/bookings/booking.zod';
import {
  CHECK_IN_OPENS_BEFORE_MS,
  CHECK_IN_UNDO_MS,
  checkInOpen,
} from '@platform/schema/kiosk/kiosk-check-in.rules';
import type { OrgFormat } from '@platform/schema/organizations/org-format';
import type { OccurrenceDoc } from '@platform/schema/schedule/schedule.zod';
import type { ListedBooking } from '../hooks/use-class-bookings.ts';
import { checkInClosedText, checkInOpensText, checkInTexts } from '../kiosk-texts.ts';

/**
 * The people booked on one class time, each with a 'Check in' button — open from an hour before
 * the start until twelve hours after the end, the server's own rule — and, just after a tap,
 * 'Undo'. A check-in shows at once, with 'Not sent yet' until the server has it.
 */
export function CheckInRoster({
  occurrence,
  bookings,
  loading,
  format,
  now,
  busyId,
  onChange,
}: {
  occurrence: OccurrenceDoc;
  bookings: ListedBooking[];
  loading: boolean;
  format: OrgFormat;
  now: Date;
  busyId: string | null;
  onChange: (booking: BookingDoc, to: 'attended' | 'booked') => void;
}) {
  const open = checkInOpen(occurrence, now.getTime());
  const opensAt = Date.parse(occurrence.startsAt) - CHECK_IN_OPENS_BEFORE_MS;
  const undoable = (booking: ListedBooking) =>
    booking.checkedInAt !== null &&
    now.getTime() - Date.parse(booking.checkedInAt) <= CHECK_IN_UNDO_MS;
  const details = [
    `${format.time(occurrence.startsAt)}–${format.time(occurrence.endsAt)}`,
    occurrence.location,
    occurrence.coachName && `with ${occurrence.coachName}`,
  ].filter(Boolean);

  return (
    <section className="kiosk-roster" aria-labelledby="kiosk-roster-heading">
      <h2 id="kiosk-roster-heading">{occurrence.title}</h2>
      <p className="kiosk-muted">{details.join(' · ')}</p>
      {!open && (
        <p className="kiosk-muted">
          {now.getTime() < opensAt ? checkInOpensText(format.time(opensAt)) : checkInClosedText}
        </p>
      )}
      {loading ? null : bookings.length === 0 ? (
        <p className="kiosk-muted">{checkInTexts.nobodyBooked}</p>
      ) : (
        <ul className="kiosk-roster-list" aria-label={`Booked for ${occurrence.title}`}>
          {bookings.map((booking) => {
            const name = booking.customerName || 'Customer';
            const unsent = booking.unsent && (
              <span className="kiosk-unsent">{checkInTexts.notSent}</span>
            );
            return (
              <li key={booking.id} className="kiosk-roster-row" data-status={booking.status}>
                <span className="kiosk-roster-name">{name}</span>
                {booking.status === 'attended' ? (
                  <span className="kiosk-roster-state">
                    <span className="kiosk-checked-in">{checkInTexts.checkedIn}</span>
                    {unsent}
                    {undoable(booking) && (
                      <button
                        type="button"
                        className="button button-secondary"
                        disabled={busyId !== null}
                        onClick={() => onChange(booking, 'booked')}
                      >
                        {checkInTexts.undo}
                        <span className="visually-hidden"> {name}</span>
                      </button>
                    )}
                  </span>
                ) : (
                  <span className="kiosk-roster-state">
                    {unsent}
                    <button
                      type="button"
                      className="button kiosk-check-in-button"
                      disabled={!open || busyId !== null}
                      aria-busy={busyId === booking.id || undefined}
                      onClick={() => onChange(booking, 'attended')}
                    >
                      {checkInTexts.checkIn}
                      <span className="visually-hidden"> {name}</span>
                    </button>
                  </span>
                )}
                {booking.refusal && <p className="kiosk-refusal">{booking.refusal}</p>}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
