import type { CurrentUser } from '@platform/schema/me/me.zod';
import { Modal } from '../../../components/modal.tsx';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { SwitchAccountForm } from './switch-account-form.tsx';

const viewName = { org: 'Organization', customer: 'Customer' } as const;

/** spec §2/§6 Switch accounts: own profiles (orgs and their view), children, return to the guardian. */
export function SwitchAccountsDialog({
  user,
  open,
  onOpenChange,
}: {
  user: CurrentUser;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const online = useOnlineStatus();
  const orgId = user.org?.id ?? null;
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Switch accounts"
      description="Choose the account or organization to use."
    >
      {!online && <p role="alert">You are offline. Switching accounts needs a connection.</p>}
      {user.allowReturnTo && (
        <SwitchAccountForm
          impersonate={user.allowReturnTo.id}
          profileType="use-latest"
          profileOrgId={null}
          disabled={!online}
        >
          Return to parent account <span className="switch-detail">{user.allowReturnTo.name}</span>
        </SwitchAccountForm>
      )}
      {user.profiles.length > 0 && <h3 className="switch-heading">Your accounts</h3>}
      {user.profiles.map((profile) => {
        const current = profile.orgId === orgId && profile.view === user.view;
        return (
          <SwitchAccountForm
            key={`${profile.orgId}:${profile.view}`}
            impersonate={user.id}
            profileType={profile.view === 'org' ? 'use-org' : 'use-customer'}
            profileOrgId={profile.orgId}
            disabled={current || !online}
          >
            {profile.label}{' '}
            <span className="switch-detail">
              {viewName[profile.view]}
              {current ? ' · current' : ''}
            </span>
          </SwitchAccountForm>
        );
      })}
      {user.children.length > 0 && <h3 className="switch-heading">Child accounts</h3>}
      {user.children.map((child) => (
        <SwitchAccountForm
          key={child.id}
          impersonate={child.id}
          profileType="use-customer"
          profileOrgId={orgId}
          disabled={!online}
        >
          Switch to {child.fullName}
        </SwitchAccountForm>
      ))}
    </Modal>
  );
}
