import { NavLink } from 'react-router';
import { customerNavigation } from '@platform/schema/organizations/navigation.rules';

/** spec §6 Customer view: Dashboard, My calendar, Shop, Purchase history, Settings. */
export function CustomerNav({ orgId }: { orgId: string | null }) {
  return (
    <nav aria-label="Customer" className="sidebar-nav">
      <ul className="nav-list">
        {customerNavigation(orgId).map((item, index) => (
          <li key={item.path}>
            <NavLink to={item.path} end={index === 0}>
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
