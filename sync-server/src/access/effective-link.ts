import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { guardianLinks } from '@platform/schema/db';

/**
 * The one definition of a guardian link that gives power (decision 0035): it exists and has
 * been confirmed. Every reader of "who may act for whom" — the decision point, the session
 * check of a switched account, replication's family scope — builds on this predicate.
 */
export function effectiveLinkExists(
  guardianId: AnyPgColumn | SQL,
  childId: AnyPgColumn | SQL,
): SQL {
  return sql`exists (select 1 from ${guardianLinks}
    where ${guardianLinks.guardianUserId} = ${guardianId}
      and ${guardianLinks.childUserId} = ${childId}
      and ${guardianLinks.confirmedAt} is not null)`;
}
