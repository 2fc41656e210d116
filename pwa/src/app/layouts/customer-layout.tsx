import { useParams } from 'react-router';
import { NotFoundPage } from '../../features/shell/components/not-found-page.tsx';
import { CustomerShell } from './customer-shell.tsx';
import { RequireSession } from './require-session.tsx';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** /dashboard-customer/**: the customer app, branded when an organisation id is in the path. */
export function CustomerLayout() {
  const { orgId = null } = useParams();
  if (orgId !== null && !uuidPattern.test(orgId)) {
    return (
      <main className="page-centre">
        <NotFoundPage />
      </main>
    );
  }
  return <RequireSession>{(user) => <CustomerShell user={user} orgId={orgId} />}</RequireSession>;
}
