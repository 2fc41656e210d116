import type { CustomerProfile } from '@platform/schema/crm/crm.zod';
import { useOrgFormat } from '../../../lib/use-org-format.ts';

/** What happened with this customer, newest first (joined, invited, notes, metrics). */
export function CustomerActivity({ activity }: { activity: CustomerProfile['activity'] }) {
  const format = useOrgFormat();
  return (
    <section className="crm-card" aria-labelledby="crm-activity-heading">
      <h2 id="crm-activity-heading">Activity</h2>
      {activity.length === 0 ? (
        <p className="crm-muted">No activity yet.</p>
      ) : (
        <ol className="crm-entries">
          {activity.map((entry, index) => (
            <li key={`${entry.at}-${index}`}>
              <time dateTime={entry.at}>{format.dateTime(entry.at)}</time> — {entry.text}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
