import { AccessDenied } from '../../../components/access-denied.tsx';
import { NotBuiltYet } from '../../../components/not-built-yet.tsx';
import { useSignedInUser } from '../../../lib/current-user.ts';

/** /admin: platform admins only (spec §6). */
export function AdminPage() {
  const user = useSignedInUser();
  if (user.role !== 'admin')
    return <AccessDenied title="Admin" reason="You are not allowed to see this page." />;
  return <NotBuiltYet title="Admin" />;
}
