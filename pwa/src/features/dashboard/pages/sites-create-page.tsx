import { NotBuiltYet } from '../../../components/not-built-yet.tsx';
import { RequireNavAccess } from '../../../components/require-nav-access.tsx';

/** /dashboard/sites/create — where a new organisation lands after signup (spec §2). */
export function SitesCreatePage() {
  return (
    <RequireNavAccess navPath="/dashboard/sites" title="Create your site">
      <NotBuiltYet title="Create your site" />
    </RequireNavAccess>
  );
}
