import type { CurrentUser } from '@platform/schema/me/me.zod';
import { Modal } from '../../../components/modal.tsx';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { SwitchAccountForm } from './switch-account-form.tsx';
import { familySwitchTarget, returnTarget } from './switch-targets.ts';

const viewName = { org: 'Organization', customer: 'Customer' } as const;

/** spec §2/§6 Switch accounts: own profiles (orgs and their view), children, return to the guardian. */
export function SwitchAccountsDialog({
  user,
  open,
  onOpenChange,
  brandedOrgId = null,
}: {
  user: CurrentUser;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Inside an organisation's branded app: moving between family members stays in it. */
  brandedOrgId?: string | null;
}) {
  const online = useOnlineStatus();
  const orgId = user.org?.id ?? null;
  const familyTarget = familySwitchTarget(brandedOrgId, orgId);
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
          {...returnTarget(brandedOrgId)}
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
          {...familyTarget}
          disabled={!online}
        >
          Switch to {child.fullName}
        </SwitchAccountForm>
      ))}
    </Modal>
  );
}
