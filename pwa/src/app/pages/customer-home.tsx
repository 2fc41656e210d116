import { useParams } from 'react-router';
import { CustomerHome } from '../../features/dashboard/components/customer-home.tsx';
import { UpcomingBookings } from '../../features/customer-app/components/upcoming-bookings.tsx';
import { useSignedInUser } from '../../lib/current-user.ts';

/**
 * /dashboard-customer and the branded /dashboard-customer/{orgId}: the customer's start page
 * with the family's next bookings composed in (features never import each other).
 */
export function CustomerHomePage() {
  const user = useSignedInUser();
  const { orgId = null } = useParams();
  const scope = orgId ?? user.org?.id ?? null;
  return (
    <CustomerHome user={user} orgId={orgId}>
      {scope && <UpcomingBookings orgId={scope} />}
    </CustomerHome>
  );
}
