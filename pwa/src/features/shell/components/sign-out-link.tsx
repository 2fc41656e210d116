import { forgetCachedUser } from '../../../lib/current-user.ts';
import { postForm } from '../../../lib/post-form.ts';
import { useAccountSync } from '../../../sync/sync-context.tsx';

/**
 * Signs out with a form POST to /auth/logout (the server ends the session and answers with
 * /auth/login). The link itself opens the server's page that asks first, for a click that
 * never reaches this handler (a new tab); GET alone signs nobody out.
 */
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
          postForm('/auth/logout'),
        );
      }}
    >
      Sign out
    </a>
  );
}
