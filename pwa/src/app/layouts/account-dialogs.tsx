import { Suspense, useState } from 'react';
import type { CurrentUser } from '@platform/schema/me/me.zod';
import { useCurrentUser } from '../../lib/current-user.ts';
import { lazyComponent } from '../../lib/lazy-component.ts';

// Dialog code (Radix, the form library) loads only when someone opens one.
const SwitchAccountsDialog = lazyComponent(
  () => import('../../features/shell/components/switch-accounts-dialog.tsx'),
  'SwitchAccountsDialog',
);
const CreateOrganizationDialog = lazyComponent(
  () => import('../../features/organizations/components/create-organization-dialog.tsx'),
  'CreateOrganizationDialog',
);

type OpenDialog = 'switch-accounts' | 'create-organization' | null;

/** The account dialogs both signed-in shells offer, and the callbacks that open them. */
export function useAccountDialogs(user: CurrentUser, brandedOrgId: string | null = null) {
  const [open, setOpen] = useState<OpenDialog>(null);
  const { refresh } = useCurrentUser();
  const onOpenChange = (which: Exclude<OpenDialog, null>) => (next: boolean) =>
    setOpen(next ? which : null);

  const dialogs = (
    <Suspense fallback={null}>
      {open === 'switch-accounts' && (
        <SwitchAccountsDialog
          user={user}
          open
          onOpenChange={onOpenChange('switch-accounts')}
          brandedOrgId={brandedOrgId}
        />
      )}
      {open === 'create-organization' && (
        <CreateOrganizationDialog
          open
          onOpenChange={onOpenChange('create-organization')}
          onCreated={() => void refresh()}
        />
      )}
    </Suspense>
  );
  return {
    dialogs,
    openSwitchAccounts: () => setOpen('switch-accounts'),
    openCreateOrganization: () => setOpen('create-organization'),
  };
}
