import { useState } from 'react';
import type { OccurrenceDoc } from '@platform/schema/schedule/schedule.zod';
import { Modal } from '../../../components/modal.tsx';
import { useToast } from '../../../components/toast/toast-context.ts';
import type { AccountDatabase } from '../../../db/database.ts';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { useOrgFormat } from '../../../lib/use-org-format.ts';
import { saveDocument } from '../../../sync/local-writes.ts';
import { bookingRequest, bookingTexts } from '../schedule-view.ts';
import { PlacePayment } from './place-payment.tsx';

export type BookChoice = {
  occurrence: OccurrenceDoc;
  person: { id: string; name: string; self: boolean };
  /** Full as the device last heard: the request asks for the waitlist. */
  full: boolean;
  hint: string;
  /** What the place costs when nothing held pays for it: paid by card first (decision 0070). */
  pay: { priceMinor: number; currency: string } | null;
};

/**
 * Book (or join the waitlist) for oneself or a child: confirmed here, written on the device —
 * online or not — and answered by the server through replication (decision 0066). A request
 * always asks for the waitlist should the class fill before it reaches the server: the person
 * chose this class; being told "full" later helps nobody, and they can leave the waitlist.
 */
export function BookDialog({
  db,
  orgId,
  choice,
  onClose,
}: {
  db: AccountDatabase;
  orgId: string;
  choice: BookChoice;
  onClose: () => void;
}) {
  const format = useOrgFormat();
  const online = useOnlineStatus();
  const toast = useToast();
  const [waitIfFull, setWaitIfFull] = useState(true);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { occurrence, person, pay } = choice;
  const who = person.self ? 'you' : person.name;
  // Named now: a paid place's payment is for this booking, whatever retries in between.
  const [bookingId] = useState(() => crypto.randomUUID());
  const write = async (joinWaitlist: boolean) => {
    await saveDocument(
      db,
      'bookings',
      bookingRequest({
        id: bookingId,
        orgId,
        personId: person.id,
        personName: person.name,
        occurrenceId: occurrence.id,
        joinWaitlist,
        now: new Date(),
      }),
    );
    toast.success(choice.full ? bookingTexts.waitlistSaved : bookingTexts.booking);
    onClose();
  };
  const confirm = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await write(choice.full || waitIfFull);
    } catch {
      setFailure('The booking could not be saved on this device. Try again.');
    } finally {
      setBusy(false);
    }
  };
  if (pay)
    return (
      <Modal open onOpenChange={(open) => !open && onClose()} title={`Book ${occurrence.title}?`}>
        <div className="checkout">
          <p>
            {format.dateTime(occurrence.startsAt)}–{format.time(occurrence.endsAt)}
            {occurrence.location && ` · ${occurrence.location}`}, for <strong>{who}</strong>.
          </p>
          <PlacePayment
            orgId={orgId}
            priceMinor={pay.priceMinor}
            currency={pay.currency}
            place={{
              bookingId,
              customerUserId: person.id,
              occurrenceId: occurrence.id,
              appointment: null,
            }}
            ready
            // Paid: the request never waits on a list holding the money (decision 0070).
            onPaid={() => write(false)}
            onCancel={onClose}
          />
        </div>
      </Modal>
    );
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={
        choice.full ? `Join the waitlist for ${occurrence.title}?` : `Book ${occurrence.title}?`
      }
    >
      <div className="checkout">
        <p>
          {format.dateTime(occurrence.startsAt)}–{format.time(occurrence.endsAt)}
          {occurrence.location && ` · ${occurrence.location}`}, for <strong>{who}</strong>.
        </p>
        {choice.hint && <p className="field-hint">{choice.hint}</p>}
        {choice.full ? (
          <p>
            This class is full. You join the waitlist, and get the first place that frees up — you
            are told by email and notification.
          </p>
        ) : (
          <label className="checkbox-field">
            <input
              type="checkbox"
              checked={waitIfFull}
              onChange={(event) => setWaitIfFull(event.target.checked)}
            />
            <span>
              If it fills up before this reaches the organization, put {who} on the waitlist
            </span>
          </label>
        )}
        {!online && (
          <p className="field-hint" role="status">
            You are offline: the request is kept on this device and sent when you are back online.
            It shows as pending until then.
          </p>
        )}
        {failure && (
          <p className="form-error" role="alert">
            {failure}
          </p>
        )}
        <div className="button-row">
          <button
            type="button"
            className="button"
            onClick={() => void confirm()}
            disabled={busy}
            aria-busy={busy || undefined}
          >
            {choice.full ? bookingTexts.joinWaitlist : 'Book'}
          </button>
          <button type="button" className="button button-secondary" onClick={onClose}>
            Not now
          </button>
        </div>
      </div>
    </Modal>
  );
}
