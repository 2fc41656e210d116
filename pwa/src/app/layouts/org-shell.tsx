import { useState } from 'react';
import { Outlet } from 'react-router';
import type { CurrentUser } from '@platform/schema/me/me.zod';
import { useToast } from '../../components/toast/toast-context.ts';
import { saveSidebarExpanded } from '../../features/shell/api/save-sidebar-expanded.ts';
import { AccountCard } from '../../features/shell/components/account-card.tsx';
import { ShellFrame } from '../../features/shell/components/shell-frame.tsx';
import { Sidebar } from '../../features/shell/components/sidebar.tsx';
import { UserMenu } from '../../features/shell/components/user-menu.tsx';
import { AccountActionsContext } from '../../lib/account-actions.ts';
import { useAccountDialogs } from './account-dialogs.tsx';
import { SyncIndicator } from '../../sync/sync-indicator.tsx';
import { RequestsNotice } from '../../features/requests/components/requests-notice.tsx';
import { ActingAsBar } from '../../features/shell/components/acting-as-bar.tsx';

/** Organisation view: top bar with the user menu, the claim-gated sidebar and the account card. */
export function OrgShell({ user }: { user: CurrentUser }) {
  const [expanded, setExpanded] = useState(user.attributes.sidebarExpanded);
  const toast = useToast();
  const { dialogs, openSwitchAccounts, openCreateOrganization } = useAccountDialogs(user);

  const toggle = () => {
    const next = !expanded;
    setExpanded(next);
    saveSidebarExpanded(next).catch(() =>
      toast.error('Your sidebar preference could not be saved.'),
    );
  };

  return (
    <ShellFrame
      title={user.org?.label ?? 'Dashboard'}
      collapsed={!expanded}
      notice={
        <>
          <ActingAsBar user={user} />
          <RequestsNotice count={user.pendingRequests} settingsPath={'/dashboard/settings'} />
        </>
      }
      userArea={
        <>
          <SyncIndicator />
          <UserMenu user={user} onCreateOrganization={openCreateOrganization} />
        </>
      }
      aside={
        <>
          <Sidebar user={user} expanded={expanded} onToggle={toggle} />
          {expanded && (
            <AccountCard
              user={user}
              onSwitchAccounts={openSwitchAccounts}
              onCreateOrganization={openCreateOrganization}
            />
          )}
        </>
      }
    >
      <AccountActionsContext value={{ openSwitchAccounts }}>
        <Outlet />
      </AccountActionsContext>
      {dialogs}
    </ShellFrame>
  );
}
