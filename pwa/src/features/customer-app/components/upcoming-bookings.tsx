import { Link } from 'react-router';
import { bookingDocSchema } from '@platform/schema/bookings/booking.zod';
import { occurrenceDocSchema } from '@platform/schema/schedule/schedule.zod';
import { brandingPaths } from '@platform/schema/branding/branding.zod';
import { useLiveQuery } from '../../../db/use-live-query.ts';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { useNow } from '../../../lib/use-now.ts';
import { useOrgFormat } from '../../../lib/use-org-format.ts';
import { useAccountSync } from '../../../sync/sync-context.tsx';
import { bookingState } from '../schedule-view.ts';

const SHOWN = 3;

/**
 * "Coming up" on the customer's start page (issue 16): the family's next bookings, from the
 * device's replica — what a parent checks on the way to the gym, with or without signal.
 */
export function UpcomingBookings({ orgId }: { orgId: string }) {
  const db = useAccountSync().sync?.db ?? null;
  const online = useOnlineStatus();
  const format = useOrgFormat();
  const now = useNow(60_000);
  const bookings = useLiveQuery(db, 'bookings', {
    selector: { orgId, status: { $in: ['requested', 'booked', 'waitlisted'] } },
  });
  const held = bookings.documents.flatMap((doc) => {
    const parsed = bookingDocSchema.safeParse(doc);
    return parsed.success ? [parsed.data] : [];
  });
  const times = useLiveQuery(db, 'occurrences', {
    selector: { orgId, id: { $in: [...new Set(held.map((b) => b.occurrenceId))] } },
  });
  const byId = new Map(
    times.documents.flatMap((doc) => {
      const parsed = occurrenceDocSchema.safeParse(doc);
      return parsed.success ? [[parsed.data.id, parsed.data] as const] : [];
    }),
  );
  const next = held
    .flatMap((booking) => {
      const occurrence = byId.get(booking.occurrenceId);
      return occurrence &&
        occurrence.status === 'scheduled' &&
        Date.parse(occurrence.startsAt) > now.getTime()
        ? [{ booking, occurrence }]
        : [];
    })
    .sort((a, b) => a.occurrence.startsAt.localeCompare(b.occurrence.startsAt))
    .slice(0, SHOWN);
  const calendar = `${brandingPaths.customerApp(orgId)}/my-calendar`;
  if (!db || bookings.status === 'loading') return null;
  return (
    <section className="shortcut-group" aria-labelledby="coming-up">
      <h2 id="coming-up">Coming up</h2>
      {next.length === 0 ? (
        <p>
          Nothing booked. <Link to={calendar}>See the classes</Link>
        </p>
      ) : (
        <>
          <ul className="purchases">
            {next.map(({ booking, occurrence }) => (
              <li key={booking.id} className="shop-item">
                <h3>{occurrence.title}</h3>
                <p>
                  {format.dateTime(occurrence.startsAt)} · {booking.customerName || 'You'}
                </p>
                <p className="field-hint">{bookingState(booking, online).label}</p>
              </li>
            ))}
          </ul>
          <p>
            <Link to={calendar}>All bookings in My calendar</Link>
          </p>
        </>
      )}
    </section>
  );
}
