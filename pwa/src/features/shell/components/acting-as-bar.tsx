import type { CurrentUser } from '@platform/schema/me/me.zod';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { SwitchAccountForm } from './switch-account-form.tsx';
import { returnTarget } from './switch-targets.ts';

/**
 * While a guardian (or an admin) acts in someone else's account, every page says so and offers
 * the way back — inside a branded app, back to that app's home (issue 14).
 */
export function ActingAsBar({
  user,
  brandedOrgId = null,
}: {
  user: CurrentUser;
  brandedOrgId?: string | null;
}) {
  const online = useOnlineStatus();
  if (!user.allowReturnTo) return null;
  return (
    <div className="acting-as-bar" role="region" aria-label="Acting as">
      <p>
        Acting as <strong>{user.fullName}</strong>
        <span className="acting-as-by"> · signed in by {user.allowReturnTo.name}</span>
      </p>
      <SwitchAccountForm
        impersonate={user.allowReturnTo.id}
        {...returnTarget(brandedOrgId)}
        disabled={!online}
        className="button button-small"
      >
        Switch back
        {!online && <span className="sr-only"> (needs a connection)</span>}
      </SwitchAccountForm>
    </div>
  );
}
