import { useSearchParams } from 'react-router';
import { NotBuiltYet } from '../../../components/not-built-yet.tsx';
import { RequireNavAccess } from '../../../components/require-nav-access.tsx';

/** /dashboard/crm/redirect?rosterId|userId: will open that customer's profile. */
export function CrmRedirectPage() {
  const [params] = useSearchParams();
  const target = params.get('rosterId') ?? params.get('userId');
  return (
    <RequireNavAccess navPath="/dashboard/crm" title="Customer profile">
      <NotBuiltYet title="Customer profile">
        {target && <p>Requested profile: {target}</p>}
      </NotBuiltYet>
    </RequireNavAccess>
  );
}
