import { Link } from 'react-router';
import { NotBuiltYet } from '../../../components/not-built-yet.tsx';

/** /dashboard/sites: the site list comes later; the ways to get a site are already here. */
export function SitesPage() {
  return (
    <NotBuiltYet title="Sites">
      <ul>
        <li>
          <Link to="/dashboard/sites/create">Create your site</Link>
        </li>
        <li>
          <Link to="/website-builder">Website builder</Link>
        </li>
        <li>
          <Link to="/request-a-domain">Request a domain</Link>
        </li>
        <li>
          <Link to="/request-a-free-website-draft">Request a free website draft</Link>
        </li>
      </ul>
    </NotBuiltYet>
  );
}
