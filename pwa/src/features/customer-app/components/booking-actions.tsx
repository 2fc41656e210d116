import { useState } from 'react';
import { bookingMessages } from '@platform/schema/bookings/booking.rules';
import type { BookingDoc } from '@platform/schema/bookings/booking.zod';
import type { OccurrenceDoc } from '@platform/schema/schedule/schedule.zod';
import { useToast } from '../../../components/toast/toast-context.ts';
import type { AccountDatabase } from '../../../db/database.ts';
import { saveDocument } from '../../../sync/local-writes.ts';
import { bookingTexts, mayCancel } from '../schedule-view.ts';

/**
 * What a person can do with a booking, on the device (sent when online): cancel it (a place
 * until the cut-off; a request or a waitlist spot any time), or — refused because the class was
 * full — ask again with the waitlist.
 */
export function BookingActions({
  db,
  booking,
  occurrence,
  now,
  paidByCard = false,
}: {
  db: AccountDatabase;
  booking: BookingDoc;
  occurrence: OccurrenceDoc;
  now: Date;
  /** The place would be paid by card: such a place never waits on the list (decision 0070). */
  paidByCard?: boolean;
}) {
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  const started = Date.parse(occurrence.startsAt) <= now.getTime();
  const write = async (change: Partial<BookingDoc>, saved: string) => {
    try {
      await saveDocument(db, 'bookings', { ...booking, ...change });
      toast.success(saved);
    } catch {
      toast.error('The change could not be saved on this device. Try again.');
    }
  };
  if (started || occurrence.status === 'cancelled') return null;
  if (booking.status === 'refused' && booking.refusal === bookingMessages.full && paidByCard)
    return (
      <p className="field-hint">
        The payment went back to your card. Book again if a place frees up.
      </p>
    );
  if (booking.status === 'refused' && booking.refusal === bookingMessages.full)
    return (
      <div className="button-row">
        <button
          type="button"
          className="button"
          onClick={() =>
            void write(
              { status: 'requested', joinWaitlist: true, requestedAt: new Date().toISOString() },
              bookingTexts.waitlistSaved,
            )
          }
        >
          {bookingTexts.joinWaitlist}
        </button>
      </div>
    );
  if (!['requested', 'booked', 'waitlisted'].includes(booking.status)) return null;
  if (!mayCancel(booking, occurrence, now.getTime()))
    return <p className="field-hint">Cancellations for this class have closed.</p>;
  const label =
    booking.status === 'waitlisted'
      ? 'Leave the waitlist'
      : booking.status === 'requested'
        ? 'Withdraw request'
        : 'Cancel booking';
  return (
    <div className="button-row">
      {confirming ? (
        <>
          <button
            type="button"
            className="button button-danger"
            onClick={() => {
              setConfirming(false);
              void write({ status: 'cancelled' }, bookingTexts.cancelSaved);
            }}
          >
            Yes, {label.toLowerCase()}
          </button>
          <button
            type="button"
            className="button button-secondary"
            onClick={() => setConfirming(false)}
          >
            Keep it
          </button>
        </>
      ) : (
        <button
          type="button"
          className="button button-secondary"
          onClick={() => setConfirming(true)}
        >
          {label}
        </button>
      )}
    </div>
  );
}
