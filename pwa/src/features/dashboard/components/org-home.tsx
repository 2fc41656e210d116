import { ShortcutGrid } from './shortcut-grid.tsx';
import type { CurrentUser } from '@platform/schema/me/me.zod';
import { visibleNavigation } from '@platform/schema/organizations/navigation.rules';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { useOrgHome } from '../hooks/use-org-home.ts';
import { SetupChecklist } from './setup-checklist.tsx';
import { TodayFigures } from './today-figures.tsx';

/**
 * Greeting, the setup checklist while something is left to set up, today's figures, and a
 * shortcut to every built part of the organisation this person may use.
 */
export function OrgHome({ user }: { user: CurrentUser }) {
  const nav = visibleNavigation(user.claims, user.org?.platform ?? 'zipper');
  const sections = [{ label: 'Your work', items: nav.top }, ...nav.groups].filter(
    (section) => section.items.length > 0,
  );
  const home = useOrgHome(user.view === 'org' ? (user.org?.id ?? null) : null);
  const online = useOnlineStatus();
  return (
    <section className="page">
      <h1>Welcome, {user.firstName || user.fullName}</h1>
      <p className="lead">
        {user.org ? user.org.label : 'You are not part of an organization yet.'}
      </p>
      {home.isPending && user.org && <p aria-live="polite">Loading today’s figures…</p>}
      {home.isError && (
        <p role="status">
          {online
            ? 'Today’s figures could not be loaded. They will be tried again in a minute.'
            : 'You are offline: today’s figures come back with the connection.'}
        </p>
      )}
      {home.data && (
        <>
          <SetupChecklist setup={home.data.setup} />
          <TodayFigures figures={home.data.figures} />
        </>
      )}
      {sections.length === 0 && (
        <p>Nothing in this organization is shared with you yet. Ask its owner for access.</p>
      )}
      {sections.map((section) => (
        <section key={section.label} className="shortcut-group">
          <h2>{section.label}</h2>
          <ShortcutGrid items={section.items} />
        </section>
      ))}
    </section>
  );
}
