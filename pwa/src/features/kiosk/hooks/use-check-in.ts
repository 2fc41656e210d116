import { useState } from 'react';
import type { BookingDoc } from '@platform/schema/bookings/booking.zod';
import { savedOfflineMessage } from '@platform/schema/time-tracking/time-tracking.messages';
import { useToast } from '../../../components/toast/toast-context.ts';
import type { AccountDatabase } from '../../../db/database.ts';
import { saveDocument } from '../../../sync/local-writes.ts';
import type { SyncStatus } from '../../../sync/replication.ts';
import { isSyncReachable } from '../../../sync/use-clock-move.ts';
import { awaitVerdict } from '../../../sync/write-verdict.ts';
import { checkedInText, checkInRefusedText, checkInTexts } from '../kiosk-texts.ts';

/**
 * Checking a person in (or undoing a mistaken tap) at the kiosk, as a clock move is made: a
 * local write at the time of the tap, which the list shows at once and the replication pushes
 * when it can; then a toast with the server's answer — or "saved on this device" offline. A
 * refusal also comes back by replication: the booking returns to the server's state.
 */
export function useCheckIn(db: AccountDatabase | null, status: SyncStatus | null) {
  const toast = useToast();
  const [busy, setBusy] = useState<string | null>(null);

  async function change(booking: BookingDoc, to: 'attended' | 'booked'): Promise<void> {
    if (busy) return;
    if (!db) {
      toast.error(checkInTexts.couldNotSave);
      return;
    }
    setBusy(booking.id);
    const now = new Date();
    const online = isSyncReachable(status);
    try {
      await saveDocument(
        db,
        'bookings',
        { ...booking, status: to, checkedInAt: to === 'attended' ? now.toISOString() : null },
        now,
      );
    } catch (error) {
      console.error('check-in failed', error);
      toast.error(checkInTexts.couldNotSave);
      return;
    } finally {
      setBusy(null);
    }
    const verdict = online
      ? await awaitVerdict(db, 'bookings', booking.id, now)
      : ({ kind: 'queued' } as const);
    const name = booking.customerName || 'Customer';
    if (verdict.kind === 'refused') toast.error(checkInRefusedText(name, verdict.message));
    else if (verdict.kind === 'queued') toast.show(savedOfflineMessage, 'info');
    else if (to === 'attended') toast.success(checkedInText(name));
  }

  return { busy, change };
}
