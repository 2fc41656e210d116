import { useParams } from 'react-router';
import { brandingPaths } from '@platform/schema/branding/branding.zod';
import { useBranding } from '../../lib/branding.ts';
import { useSignedInUser } from '../../lib/current-user.ts';

/** The organisation a customer page is about and where its dashboard is. */
export function useCustomerApp() {
  const user = useSignedInUser();
  const { orgId = null } = useParams();
  const branding = useBranding();
  const orgName =
    (orgId && branding.orgId === orgId ? branding.appName : null) ?? user.org?.label ?? null;
  return {
    user,
    orgId,
    orgName,
    home: orgId ? brandingPaths.customerApp(orgId) : '/dashboard-customer',
  };
}
