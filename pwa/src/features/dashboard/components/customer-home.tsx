import type { ReactNode } from 'react';
import { useAccountActions } from '../../../lib/account-actions.ts';
import { ShortcutGrid } from './shortcut-grid.tsx';
import type { CurrentUser } from '@platform/schema/me/me.zod';
import { customerNavigation } from '@platform/schema/organizations/navigation.rules';

/** The customer's start page: where to book, buy and look back; children they manage. */
export function CustomerHome({
  user,
  orgId,
  children,
}: {
  user: CurrentUser;
  orgId: string | null;
  /** What other features add to the start page (composed in app/pages). */
  children?: ReactNode;
}) {
  const { openSwitchAccounts } = useAccountActions();
  const shortcuts = customerNavigation(orgId).slice(1);
  // spec §2 Customer dashboard: buying happens at /dashboard/customer-purchase outside a branded app.
  if (!orgId) shortcuts.push({ label: 'Buy a product', path: '/dashboard/customer-purchase' });
  return (
    <section className="page">
      <h1>Hello, {user.firstName || user.fullName}</h1>
      {user.org && <p className="lead">{user.org.label}</p>}
      {children}
      <ShortcutGrid items={shortcuts} />
      {user.children.length > 0 && (
        <section className="shortcut-group">
          <h2>Child accounts</h2>
          <p>
            You manage {user.children.map((child) => child.fullName).join(', ')}.{' '}
            {openSwitchAccounts ? (
              <>
                Use{' '}
                <button type="button" className="button-link" onClick={openSwitchAccounts}>
                  Switch accounts
                </button>{' '}
                to act for them.
              </>
            ) : (
              'Use Switch accounts to act for them.'
            )}
          </p>
        </section>
      )}
    </section>
  );
}
