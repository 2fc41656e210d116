import type { ReactNode } from 'react';
import { visibleNavigation } from '@platform/schema/organizations/navigation.rules';
import { useSignedInUser } from '../lib/current-user.ts';
import { AccessDenied } from './access-denied.tsx';

/**
 * Shows `children` only to people whose sidebar holds `navPath` (spec §6: claims gate the
 * organisation navigation, Jobber hides some of it). The server enforces the same on its data.
 */
export function RequireNavAccess({
  navPath,
  title,
  children,
}: {
  navPath: string;
  title: string;
  children: ReactNode;
}) {
  const user = useSignedInUser();
  const nav =
    user.view === 'org' && user.org ? visibleNavigation(user.claims, user.org.platform) : null;
  const allowed =
    nav !== null &&
    [...nav.top, ...nav.groups.flatMap((group) => group.items), ...nav.comingSoon].some(
      (item) => item.path === navPath,
    );
  if (!allowed)
    return (
      <AccessDenied
        title={title}
        reason="You do not have access to this part of the organization."
      />
    );
  return children;
}
