import { useMemo } from 'react';
import { bookingDocSchema, type BookingDoc } from '@platform/schema/bookings/booking.zod';
import { rosterItemDocSchema } from '@platform/schema/roster/roster-item.zod';
import { useLiveQuery } from '../../../db/use-live-query.ts';
import { useAccountSync } from '../../../sync/sync-context.tsx';
import { EmptyState } from '../components/empty-state.tsx';
import { useCustomerApp } from '../use-customer-app.ts';

const statusLabel: Record<BookingDoc['status'], string> = {
  requested: 'Pending',
  booked: 'Booked',
  waitlisted: 'On the waitlist',
  refused: 'Not booked',
  cancelled: 'Cancelled',
  attended: 'Attended',
  'no-show': 'Missed',
};

/**
 * My calendar: the family's bookings, from the device (they replicate, so this works on a
 * train). Class names and times arrive with the calendar work; until then a booking shows its
 * reference and state.
 */
export function MyCalendarPage() {
  const { orgId, orgName, home, user } = useCustomerApp();
  const db = useAccountSync().sync?.db ?? null;
  const scope = orgId ?? user.org?.id ?? '';
  const bookings = useLiveQuery(db, 'bookings', { selector: { orgId: scope } });
  const roster = useLiveQuery(db, 'roster', { selector: { orgId: scope } });
  const names = useMemo(() => {
    const byUser = new Map<string, string>();
    for (const doc of roster.documents) {
      const parsed = rosterItemDocSchema.safeParse(doc);
      if (parsed.success) byUser.set(parsed.data.athlete.id, parsed.data.athlete.fullName);
    }
    return byUser;
  }, [roster.documents]);
  const rows = bookings.documents.flatMap((doc) => {
    const parsed = bookingDocSchema.safeParse(doc);
    return parsed.success ? [parsed.data] : [];
  });

  return (
    <section className="page">
      <h1>My calendar</h1>
      {db && bookings.status === 'loading' ? (
        <p role="status">Loading your bookings…</p>
      ) : rows.length === 0 ? (
        <EmptyState title="No bookings yet" action={{ label: 'Back to the dashboard', to: home }}>
          Classes and appointments you or your children book with {orgName ?? 'your organization'}{' '}
          appear here.
        </EmptyState>
      ) : (
        <table className="data-table">
          <caption className="visually-hidden">Your family's bookings</caption>
          <thead>
            <tr>
              <th scope="col">Who</th>
              <th scope="col">Booking</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((booking) => (
              <tr key={booking.id}>
                <td>
                  {names.get(booking.customerUserId) ??
                    (booking.customerUserId === user.id ? user.fullName : 'Family member')}
                </td>
                <td>{booking.occurrenceId}</td>
                <td>{statusLabel[booking.status]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
