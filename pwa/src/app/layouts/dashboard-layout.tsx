import { CustomerShell } from './customer-shell.tsx';
import { OrgShell } from './org-shell.tsx';
import { RequireSession } from './require-session.tsx';

/** /dashboard/** and /admin: signed-in only; the organisation or the customer view. */
export function DashboardLayout() {
  return (
    <RequireSession>
      {(user) =>
        user.view === 'org' ? <OrgShell user={user} /> : <CustomerShell user={user} orgId={null} />
      }
    </RequireSession>
  );
}
