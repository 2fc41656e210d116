import { brandingPaths } from '@platform/schema/branding/branding.zod';

/** Into a child's account: the branded app's home when inside one, else the dashboard. */
export function familySwitchTarget(brandedOrgId: string | null, orgId: string | null) {
  return brandedOrgId
    ? {
        profileType: 'use-customer' as const,
        profileOrgId: brandedOrgId,
        redirectTo: brandingPaths.customerApp(brandedOrgId),
      }
    : { profileType: 'use-customer' as const, profileOrgId: orgId, redirectTo: '/dashboard' };
}

/** Back to the guardian (or admin): the branded app's home when inside one. */
export function returnTarget(brandedOrgId: string | null) {
  return brandedOrgId
    ? familySwitchTarget(brandedOrgId, null)
    : { profileType: 'use-latest' as const, profileOrgId: null, redirectTo: '/dashboard' };
}
