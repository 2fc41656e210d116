import { useEffect, useMemo, useState } from 'react';
import { bookingDocSchema, type BookingDoc } from '@platform/schema/bookings/booking.zod';
import type { AccountDatabase } from '../../../db/database.ts';
import { useLiveQuery } from '../../../db/use-live-query.ts';
import { pendingWritesOf } from '../../../sync/pending-writes.ts';

/** The places a kiosk checks people in to: booked, or already checked in. */
const onTheList: Array<BookingDoc['status']> = ['booked', 'attended'];

export type ListedBooking = BookingDoc & {
  /** Changed on this device and not yet acknowledged by the server. */
  unsent: boolean;
  /** Why the server refused this device's last change of it, while nothing newer came since. */
  refusal: string | null;
};

type Refusal = { message: string; at: string };

/**
 * Who is booked on these class times, from the kiosk's replica of current bookings, by class
 * time and by name: each with whether this device's change of it waits to be sent, and the
 * server's refusal of that change (which came back by replication with the server's state).
 */
export function useClassBookings(
  db: AccountDatabase | null,
  occurrenceIds: readonly string[],
): { loading: boolean; byClass: ReadonlyMap<string, ListedBooking[]> } {
  const live = useLiveQuery(db, 'bookings', {
    selector: { occurrenceId: { $in: [...occurrenceIds] }, status: { $in: onTheList } },
  });
  const docs = useMemo(
    () =>
      live.documents.flatMap((doc) => {
        const parsed = bookingDocSchema.safeParse(doc);
        return parsed.success ? [parsed.data] : [];
      }),
    [live.documents],
  );
  const unsent = useUnsent(
    db,
    docs.map((doc) => doc.id),
  );
  const refusals = useRefusals(db);
  const byClass = useMemo(() => {
    const map = new Map<string, ListedBooking[]>();
    for (const doc of docs) {
      const refusal = refusals.get(doc.id);
      const listed: ListedBooking = {
        ...doc,
        unsent: unsent.has(doc.id),
        refusal: refusal && refusal.at >= doc.updatedAt ? refusal.message : null,
      };
      map.set(doc.occurrenceId, [...(map.get(doc.occurrenceId) ?? []), listed]);
    }
    for (const list of map.values())
      list.sort((a, b) => a.customerName.localeCompare(b.customerName) || a.id.localeCompare(b.id));
    return map;
  }, [docs, unsent, refusals]);
  return { loading: live.status === 'loading', byClass };
}

/** Which of these bookings this device changed and the server has not acknowledged yet. */
function useUnsent(db: AccountDatabase | null, ids: string[]): ReadonlySet<string> {
  const [unsent, setUnsent] = useState<ReadonlySet<string>>(new Set());
  const key = ids.join(',');
  useEffect(() => {
    if (!db) return;
    const pending = pendingWritesOf(db.name);
    const watched = key ? key.split(',') : [];
    // count$ moves with every change to what waits to be sent (and says it at once).
    const subscription = pending.count$.subscribe(() =>
      setUnsent(new Set(watched.filter((id) => pending.has('bookings', id)))),
    );
    return () => subscription.unsubscribe();
  }, [db, key]);
  return unsent;
}

/** The newest refusal of each booking this device pushed (kept on the device, decision 0005). */
function useRefusals(db: AccountDatabase | null): ReadonlyMap<string, Refusal> {
  const [refusals, setRefusals] = useState<ReadonlyMap<string, Refusal>>(new Map());
  useEffect(() => {
    if (!db) return;
    const subscription = db.rejections
      .find({ selector: { collectionName: 'bookings' }, sort: [{ rejectedAt: 'asc' }] })
      .$.subscribe((rows) =>
        setRefusals(
          new Map(
            rows.map((row) => [row.documentId, { message: row.message, at: row.rejectedAt }]),
          ),
        ),
      );
    return () => subscription.unsubscribe();
  }, [db]);
  return refusals;
}
