import { ShortcutGrid } from './shortcut-grid.tsx';
import type { CurrentUser } from '@platform/schema/me/me.zod';
import { visibleNavigation } from '@platform/schema/organizations/navigation.rules';

/** Greeting, the organisation, and a shortcut to every part of it this person may use. */
export function OrgHome({ user }: { user: CurrentUser }) {
  const nav = visibleNavigation(user.claims, user.org?.platform ?? 'zipper');
  const sections = [{ label: 'Your work', items: nav.top }, ...nav.groups].filter(
    (section) => section.items.length > 0,
  );
  return (
    <section className="page">
      <h1>Welcome, {user.firstName || user.fullName}</h1>
      <p className="lead">
        {user.org ? user.org.label : 'You are not part of an organization yet.'}
      </p>
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
