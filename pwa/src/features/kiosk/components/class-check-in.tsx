import { useState } from 'react';
import type { Kiosk } from '@platform/schema/kiosk/kiosk.zod';
import { orgFormat } from '@platform/schema/organizations/org-format';
import { orgTimeZone } from '@platform/schema/time-tracking/org-calendar';
import type { AccountDatabase } from '../../../db/database.ts';
import { useNow } from '../../../lib/use-now.ts';
import type { SyncStatus } from '../../../sync/replication.ts';
import { useCheckIn } from '../hooks/use-check-in.ts';
import { useClassBookings } from '../hooks/use-class-bookings.ts';
import { useTodaysClasses } from '../hooks/use-todays-classes.ts';
import { checkedInCountText, checkInTexts } from '../kiosk-texts.ts';
import { CheckInRoster } from './check-in-roster.tsx';

/**
 * Class check-in at the front desk (issue 16): today's class times from the kiosk's replica;
 * pick one, then check in each person booked on it. Every tap is a local write the replication
 * sends when it can — offline too, kept through a reload, counted with the clock moves.
 */
export function ClassCheckIn({
  kiosk,
  db,
  status,
}: {
  kiosk: Kiosk;
  db: AccountDatabase | null;
  status: SyncStatus | null;
}) {
  const now = useNow(30_000);
  const format = orgFormat(kiosk.org.timezone);
  const today = useTodaysClasses(db, kiosk.org.id, orgTimeZone(kiosk.org.timezone), now);
  const bookings = useClassBookings(
    db,
    today.classes.map((occurrence) => occurrence.id),
  );
  const checkIn = useCheckIn(db, status);
  const [pickedId, setPickedId] = useState<string | null>(null);
  const picked = today.classes.find((occurrence) => occurrence.id === pickedId) ?? null;

  return (
    <section className="kiosk-panel" aria-labelledby="kiosk-check-in-heading">
      <h1 id="kiosk-check-in-heading">{checkInTexts.heading}</h1>
      {today.loading ? (
        <p className="kiosk-muted">{checkInTexts.loadingClasses}</p>
      ) : today.classes.length === 0 ? (
        <p className="kiosk-muted">{checkInTexts.noClasses}</p>
      ) : (
        <ul className="kiosk-classes" aria-label="Today’s classes">
          {today.classes.map((occurrence) => {
            const listed = bookings.byClass.get(occurrence.id) ?? [];
            const checkedIn = listed.filter((booking) => booking.status === 'attended').length;
            return (
              <li key={occurrence.id}>
                <button
                  type="button"
                  className="kiosk-class"
                  aria-pressed={occurrence.id === pickedId}
                  onClick={() => setPickedId(occurrence.id)}
                >
                  <span className="kiosk-class-time">
                    {format.time(occurrence.startsAt)}–{format.time(occurrence.endsAt)}
                  </span>
                  <span className="kiosk-class-title">{occurrence.title}</span>
                  <span className="kiosk-muted">
                    {checkedInCountText(checkedIn, listed.length)}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {picked && (
        <CheckInRoster
          occurrence={picked}
          bookings={bookings.byClass.get(picked.id) ?? []}
          loading={bookings.loading}
          format={format}
          now={now}
          busyId={checkIn.busy}
          onChange={(booking, to) => void checkIn.change(booking, to)}
        />
      )}
    </section>
  );
}
