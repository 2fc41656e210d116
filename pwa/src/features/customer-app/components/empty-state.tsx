import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** A page with nothing in it yet: what will appear here, and where to go meanwhile. */
export function EmptyState({
  title,
  children,
  action,
}: {
  title: string;
  children: ReactNode;
  action?: { label: string; to: string };
}) {
  return (
    <div className="empty-state" role="status">
      <h2>{title}</h2>
      <p>{children}</p>
      {action && (
        <Link className="button button-secondary" to={action.to}>
          {action.label}
        </Link>
      )}
    </div>
  );
}
