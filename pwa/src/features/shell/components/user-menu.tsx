import { Link } from 'react-router';
import type { CurrentUser } from '@platform/schema/me/me.zod';
import { hasAnyClaim } from '@platform/schema/organizations/claims';
import { subscriptionsOverviewClaims } from '@platform/schema/payments/subscriptions-overview.zod';
import { DisclosureMenu } from '../../../components/disclosure-menu.tsx';
import { Avatar } from './avatar.tsx';
import { SignOutLink } from './sign-out-link.tsx';

/**
 * spec §2 User menu: Dashboard, Admin (admins), Subscription & Billing (org view — the
 * customers' subscriptions, for staff who sell or keep the products, as its page requires; not
 * a time-only employee), Sign out — and the person's own Settings (issue 14: staff set their
 * kiosk PIN there).
 */
export function UserMenu({
  user,
  onCreateOrganization,
}: {
  user: CurrentUser;
  onCreateOrganization?: () => void;
}) {
  return (
    <DisclosureMenu
      align="end"
      buttonClassName="user-menu-button"
      label={
        <>
          <Avatar user={user} />
          <span className="sr-only">User menu: </span>
          <span className="user-menu-name">{user.fullName}</span>
        </>
      }
    >
      <ul className="menu-list">
        <li>
          <Link to="/dashboard">Dashboard</Link>
        </li>
        <li>
          <Link to={settingsPathOf(user)}>Settings</Link>
        </li>
        {user.role === 'admin' && (
          <li>
            <Link to="/admin">Admin</Link>
          </li>
        )}
        {user.view === 'org' && hasAnyClaim(user.claims, subscriptionsOverviewClaims) && (
          <li>
            <Link to="/dashboard/org-subscription">Subscription &amp; Billing</Link>
          </li>
        )}
        {onCreateOrganization && (
          <li>
            <button type="button" onClick={onCreateOrganization}>
              Create organization
            </button>
          </li>
        )}
        <li>
          <SignOutLink />
        </li>
      </ul>
    </DisclosureMenu>
  );
}

/** The person's own settings, in the app they are using (a branded customer app has its own). */
function settingsPathOf(user: CurrentUser): string {
  if (user.view === 'customer' && user.org) return `/dashboard-customer/${user.org.id}/settings`;
  return '/dashboard/settings';
}
