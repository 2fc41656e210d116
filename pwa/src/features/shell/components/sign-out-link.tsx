import { forgetCachedUser, useCurrentUser } from '../../../lib/current-user.ts';

/** /auth/logout is the server's (it clears the session and redirects to /auth/login). */
export function SignOutLink({ className }: { className?: string }) {
  const current = useCurrentUser();
  const accountId = current.status === 'signed-in' ? current.user.id : null;
  return (
    <a
      href="/auth/logout"
      className={className}
      onClick={(event) => {
        event.preventDefault();
        // The account's offline data leaves the device with the session (issue 4).
        const forgetData = accountId
          ? import('../../../sync/start-account-sync.ts').then(({ forgetAccountData }) => forgetAccountData(accountId))
          : Promise.resolve();
        void Promise.allSettled([forgetCachedUser(), forgetData]).finally(() => window.location.assign('/auth/logout'));
      }}
    >
      Sign out
    </a>
  );
}
