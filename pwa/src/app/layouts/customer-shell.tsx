import { Outlet } from 'react-router';
import type { CurrentUser } from '@platform/schema/me/me.zod';
import { platformBranding, useBranding } from '../../lib/branding.ts';
import { BrandingScope } from '../providers/branding-provider.tsx';
import { AccountCard } from '../../features/shell/components/account-card.tsx';
import { CustomerNav } from '../../features/shell/components/customer-nav.tsx';
import { ShellFrame } from '../../features/shell/components/shell-frame.tsx';
import { UserMenu } from '../../features/shell/components/user-menu.tsx';
import { AccountActionsContext } from '../../lib/account-actions.ts';
import { useAccountDialogs } from './account-dialogs.tsx';
import { SyncIndicator } from '../../sync/sync-indicator.tsx';
import { RequestsNotice } from '../../features/requests/components/requests-notice.tsx';
import { ActingAsBar } from '../../features/shell/components/acting-as-bar.tsx';
import { useReplicatedBranding } from './use-replicated-branding.ts';

/**
 * Customer view (spec §6): the customer navigation instead of the sidebar. With an orgId it is
 * the branded customer app of that organisation, with a Powered-by footer (spec §1).
 */
export function CustomerShell({ user, orgId }: { user: CurrentUser; orgId: string | null }) {
  const fetched = useBranding();
  const replicated = useReplicatedBranding(orgId);
  const branding = replicated ?? fetched;
  const { dialogs, openSwitchAccounts, openCreateOrganization } = useAccountDialogs(user, orgId);
  // A parent's (customer's) menus offer no organisation to create; a switched session neither.
  const mayCreateOrganization = !orgId && user.allowReturnTo === null;
  const orgLabel = orgId && user.org?.id === orgId ? user.org.label : null;
  return (
    <BrandingScope branding={branding}>
      <ShellFrame
        title={orgLabel ?? user.org?.label ?? 'My account'}
        notice={
          <>
            <ActingAsBar user={user} brandedOrgId={orgId} />
            <RequestsNotice
              count={user.pendingRequests}
              settingsPath={orgId ? `/dashboard-customer/${orgId}/settings` : '/dashboard/settings'}
            />
          </>
        }
        userArea={
          <>
            <SyncIndicator />
            <UserMenu
              user={user}
              {...(mayCreateOrganization ? { onCreateOrganization: openCreateOrganization } : {})}
            />
          </>
        }
        aside={
          <>
            <CustomerNav orgId={orgId} />
            <AccountCard
              user={user}
              inCustomerApp
              onSwitchAccounts={openSwitchAccounts}
              {...(mayCreateOrganization ? { onCreateOrganization: openCreateOrganization } : {})}
            />
          </>
        }
        footer={
          orgId ? (
            <footer className="powered-by">
              Powered by {branding.poweredBy ?? platformBranding.appName}
            </footer>
          ) : undefined
        }
      >
        <AccountActionsContext value={{ openSwitchAccounts }}>
          <Outlet />
        </AccountActionsContext>
        {dialogs}
      </ShellFrame>
    </BrandingScope>
  );
}
