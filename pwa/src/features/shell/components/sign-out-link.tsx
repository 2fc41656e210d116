import { forgetCachedUser } from '../../../lib/current-user.ts';
import { useAccountSync } from '../../../sync/sync-context.tsx';

/** /auth/logout is the server's (it clears the session and redirects to /auth/login). */
export function SignOutLink({ className }: { className?: string }) {
  const { forgetLocalData } = useAccountSync();
  return (
    <a
      href="/auth/logout"
      className={className}
      onClick={(event) => {
        event.preventDefault();
        // The account's offline data leaves the device with the session (issue 4); a device
        // that cannot delete it in time still signs out.
        const forgetData = Promise.race([
          forgetLocalData(),
          new Promise((resolve) => setTimeout(resolve, 3000)),
        ]);
        void Promise.allSettled([forgetCachedUser(), forgetData]).finally(() =>
          window.location.assign('/auth/logout'),
        );
      }}
    >
      Sign out
    </a>
  );
}
