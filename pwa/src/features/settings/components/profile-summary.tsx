import type { CurrentUser } from '@platform/schema/me/me.zod';

/** The profile as the last /api/me had it: what the page can show without the server. */
export function ProfileSummary({ user }: { user: CurrentUser }) {
  return (
    <dl className="settings-summary">
      <div>
        <dt>Name</dt>
        <dd>{user.fullName}</dd>
      </div>
      <div>
        <dt>Email</dt>
        <dd>{user.email ?? 'No email on this account'}</dd>
      </div>
    </dl>
  );
}
