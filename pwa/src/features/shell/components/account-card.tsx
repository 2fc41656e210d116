import { Link } from 'react-router';
import type { CurrentUser } from '@platform/schema/me/me.zod';
import {
  hasAnyClaim,
  kioskClaims,
  timeTrackingClaims,
} from '@platform/schema/organizations/claims';
import { Avatar } from './avatar.tsx';

/**
 * spec §2 Account card: customer app, kiosk mode (org view + manage-kiosk), time tracking (org
 * view + claim), switch accounts.
 */
export function AccountCard({
  user,
  onSwitchAccounts,
  onCreateOrganization,
  inCustomerApp = false,
}: {
  user: CurrentUser;
  onSwitchAccounts: () => void;
  /** Absent where creating an organisation is not offered (a parent's app, a switched session). */
  onCreateOrganization?: (() => void) | undefined;
  /** Shown inside the customer app: it does not offer to open itself. */
  inCustomerApp?: boolean;
}) {
  const orgView = user.view === 'org';
  const tracksTime = orgView && hasAnyClaim(user.claims, timeTrackingClaims);
  const startsKiosks = orgView && hasAnyClaim(user.claims, kioskClaims);
  return (
    <section className="account-card" aria-label="Account">
      <div className="account-identity">
        <Avatar user={user} />
        <div>
          <p className="account-name">{user.fullName}</p>
          <p className="account-org">
            {user.org
              ? `${user.org.label} · ${orgView ? 'Organization' : 'Customer'}`
              : 'Personal account'}
          </p>
        </div>
      </div>
      {tracksTime && (
        <p className="account-status">
          <Link to="/dashboard/time-tracking">Time tracking</Link>: clock in and out from the time
          clock.
        </p>
      )}
      <ul className="account-actions">
        {user.org && !inCustomerApp && (
          <li>
            <Link to={`/dashboard-customer/${user.org.id}`}>Open customer app</Link>
          </li>
        )}
        {startsKiosks && (
          <li>
            <Link to="/auth/kiosk-mode">Enter kiosk mode</Link>
          </li>
        )}
        <li>
          <button type="button" onClick={onSwitchAccounts}>
            Switch accounts
          </button>
        </li>
        {onCreateOrganization && (
          <li>
            <button type="button" onClick={onCreateOrganization}>
              Create organization
            </button>
          </li>
        )}
      </ul>
    </section>
  );
}
