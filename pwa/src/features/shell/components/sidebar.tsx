import { NavLink } from 'react-router';
import type { CurrentUser } from '@platform/schema/me/me.zod';
import { SUPPORT_EMAIL } from '@platform/schema/app/constants';
import { visibleNavigation } from '@platform/schema/organizations/navigation.rules';

/**
 * spec §2 Sidebar of the organisation view: top items and the four groups, each item only
 * with its claim and minus what the Jobber platform hides (navigation.rules.ts), then Give feedback.
 */
export function Sidebar({
  user,
  expanded,
  onToggle,
}: {
  user: CurrentUser;
  expanded: boolean;
  onToggle: () => void;
}) {
  const nav = visibleNavigation(user.claims, user.org?.platform ?? 'zipper');
  return (
    <nav aria-label="Sidebar" className="sidebar-nav">
      <button
        type="button"
        className="sidebar-toggle"
        aria-expanded={expanded}
        aria-controls="sidebar-items"
        onClick={onToggle}
      >
        {expanded ? 'Collapse sidebar' : 'Expand sidebar'}
      </button>
      <div id="sidebar-items" hidden={!expanded}>
        <ul className="nav-list">
          <li>
            <NavLink to="/dashboard" end>
              Dashboard
            </NavLink>
          </li>
          {nav.top.map((item) => (
            <li key={item.path}>
              <NavLink to={item.path}>{item.label}</NavLink>
            </li>
          ))}
        </ul>
        {nav.groups.map((group) => (
          <section
            key={group.label}
            className="nav-group"
            aria-labelledby={`nav-group-${slug(group.label)}`}
          >
            <h2 id={`nav-group-${slug(group.label)}`}>{group.label}</h2>
            <ul className="nav-list">
              {group.items.map((item) => (
                <li key={item.path}>
                  <NavLink to={item.path}>{item.label}</NavLink>
                </li>
              ))}
            </ul>
          </section>
        ))}
        {nav.comingSoon.length > 0 && (
          <details className="nav-coming-soon">
            <summary>Coming soon ({nav.comingSoon.length})</summary>
            <p>These parts of the platform are on their way; nothing to set up yet.</p>
            <ul>
              {nav.comingSoon.map((item) => (
                <li key={item.path}>{item.label}</li>
              ))}
            </ul>
          </details>
        )}
        <p className="feedback-link">
          <a href={`mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent('Feedback')}`}>
            Give feedback
          </a>
        </p>
      </div>
    </nav>
  );
}

const slug = (label: string) => label.toLowerCase().replace(/[^a-z0-9]+/g, '-');
