import { useParams } from 'react-router';
import { useSignedInUser } from '../../../lib/current-user.ts';
import { CustomerHome } from '../components/customer-home.tsx';

/** /dashboard-customer and the branded /dashboard-customer/{orgId}. */
export function CustomerHomePage() {
  const user = useSignedInUser();
  const { orgId = null } = useParams();
  return <CustomerHome user={user} orgId={orgId} />;
}
