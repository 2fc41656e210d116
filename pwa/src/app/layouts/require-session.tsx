import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import type { CurrentUser } from '@platform/schema/me/me.zod';
import { PageLoading } from '../../components/page-loading.tsx';
import { useCurrentUser } from '../../lib/current-user.ts';
import { signInPathFor } from './sign-in-path.ts';
import { SyncProvider } from '../../sync/sync-context.tsx';
import { KeepNotificationsRegistered } from '../../features/notifications/components/keep-notifications-registered.tsx';
import { NotificationsAfterInstallOffer } from '../../features/notifications/components/notifications-after-install-offer.tsx';

/**
 * Renders `children` for a signed-in user; sends anyone else to /auth/login?redirectTo=<here>.
 * A 'signed-out' answer may predate a sign-in made on this page (the login page navigates
 * without a reload), so it is checked once more before redirecting.
 */
export function RequireSession({ children }: { children: (user: CurrentUser) => ReactNode }) {
  const current = useCurrentUser();
  const location = useLocation();
  const [rechecked, setRechecked] = useState(false);
  const { status, refresh } = current;

  useEffect(() => {
    if (status !== 'signed-out' || rechecked) return;
    let live = true;
    void refresh().finally(() => {
      if (live) setRechecked(true);
    });
    return () => {
      live = false;
    };
  }, [status, rechecked, refresh]);

  switch (current.status) {
    case 'signed-in':
      return (
        <SyncProvider user={current.user}>
          {children(current.user)}
          {/* Push (issue 5): this device keeps receiving the person's notices, and is offered
              them right after the app is installed. */}
          <KeepNotificationsRegistered userId={current.user.id} />
          <NotificationsAfterInstallOffer userId={current.user.id} />
        </SyncProvider>
      );
    case 'signed-out': {
      if (!rechecked) return <PageLoading label="Loading your account…" />;
      return <Navigate to={signInPathFor(location.pathname, location.search)} replace />;
    }
    case 'offline':
      return (
        <SessionProblem message="You are offline. This page needs a connection the first time." />
      );
    case 'failed':
      return <SessionProblem message={current.message} onRetry={() => void refresh()} />;
    default:
      return <PageLoading label="Loading your account…" />;
  }
}

function SessionProblem({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <main className="page session-problem">
      <p role="alert">{message}</p>
      {onRetry && (
        <button type="button" className="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </main>
  );
}
