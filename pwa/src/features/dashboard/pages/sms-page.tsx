import { useParams } from 'react-router';
import { NotBuiltYet } from '../../../components/not-built-yet.tsx';
import { RequireNavAccess } from '../../../components/require-nav-access.tsx';

/** /dashboard/sms/{tab}. */
export function SmsPage() {
  const { tab = 'inbox' } = useParams();
  return (
    <RequireNavAccess navPath="/dashboard/sms/inbox" title="SMS">
      <NotBuiltYet title="SMS">
        <p>Tab: {tab}</p>
      </NotBuiltYet>
    </RequireNavAccess>
  );
}
