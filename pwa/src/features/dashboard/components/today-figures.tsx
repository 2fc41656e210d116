import { Link } from 'react-router';
import type { OrgHome } from '@platform/schema/organizations/org-home.zod';

/** Today's figures that exist (issue 14): who is on the clock, new customers. */
export function TodayFigures({ figures }: { figures: OrgHome['figures'] }) {
  const tiles = [
    figures.onTheClock === null
      ? null
      : { label: 'On the clock now', value: figures.onTheClock, path: '/dashboard/time-tracking' },
    figures.newCustomersThisWeek === null
      ? null
      : {
          label: 'New customers this week',
          value: figures.newCustomersThisWeek,
          path: '/dashboard/crm',
        },
    figures.customers === null
      ? null
      : { label: 'Customers', value: figures.customers, path: '/dashboard/crm' },
  ].filter((tile) => tile !== null);
  if (tiles.length === 0) return null;
  return (
    <section aria-labelledby="today-heading">
      <h2 id="today-heading">Today</h2>
      <ul className="figure-tiles">
        {tiles.map((tile) => (
          <li key={tile.label}>
            <Link to={tile.path} className="figure-tile">
              <span className="figure-value">{tile.value}</span>
              <span className="figure-label">{tile.label}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
