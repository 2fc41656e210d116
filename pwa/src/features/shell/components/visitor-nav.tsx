import { Link } from 'react-router';
import { DisclosureMenu } from '../../../components/disclosure-menu.tsx';
import { visitorMenus } from './visitor-menus.ts';

/** spec §2 Top navigation for visitors: the product menus, Get started and Sign in. */
export function VisitorNav() {
  return (
    <>
      <nav aria-label="Main" className="visitor-nav">
        <ul>
          {visitorMenus.map((menu) => (
            <li key={menu.label}>
              <DisclosureMenu label={menu.label}>
                <p className="menu-description">{menu.description}</p>
              </DisclosureMenu>
            </li>
          ))}
        </ul>
      </nav>
      <div className="visitor-actions">
        <Link to="/auth/login" className="button button-secondary">
          Sign in
        </Link>
        <Link to="/auth/signup" className="button">
          Get started
        </Link>
      </div>
    </>
  );
}
