import { useSignedInUser } from '../../../lib/current-user.ts';
import { CustomerHome } from '../components/customer-home.tsx';
import { OrgHome } from '../components/org-home.tsx';

/** /dashboard: the organisation home in org view, the customer home in customer view. */
export function DashboardHomePage() {
  const user = useSignedInUser();
  return user.view === 'org' ? <OrgHome user={user} /> : <CustomerHome user={user} orgId={null} />;
}
