import { fullName } from '@platform/schema/app/full-name.rules';
import { and, asc, eq, exists, gte, lt, or, sql, type SQL } from 'drizzle-orm';
import { memberships, timeEntries, users } from '@platform/schema/db';
import { timeTrackingClaims } from '@platform/schema/organizations/claims';
import type { TimeEntryDoc } from '@platform/schema/time-tracking/time-entry.zod';
import type { TimeTrackingPerson } from '@platform/schema/time-tracking/time-tracking.zod';
import type { Db } from '../db/open-database.ts';
import type { WireDoc } from '../sync/collection-definition.ts';
import { readDocuments, type ReportUnreadable } from '../sync/read-document.ts';
import { timeEntryReading } from './time-entries.repository.ts';

/**
 * The organisation's staff who track time: those holding a time-tracking claim, and anyone
 * else with entries here (a claim taken away leaves their hours to correct). By name.
 */
export async function listTimeTrackingPeople(db: Db, orgId: string): Promise<TimeTrackingPerson[]> {
  const claimList = sql.join(
    timeTrackingClaims.map((claim) => sql`${claim}`),
    sql`, `,
  );
  const rows = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(memberships.orgId, orgId),
        eq(memberships.kind, 'staff'),
        or(
          sql`${memberships.claims} && array[${claimList}]::text[]`,
          exists(
            db
              .select({ one: sql`1` })
              .from(timeEntries)
              .where(and(eq(timeEntries.orgId, orgId), eq(timeEntries.userId, users.id))),
          ),
        ),
      ),
    )
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id));
  return rows.map((row) => ({ id: row.id, fullName: fullName(row), email: row.email }));
}

export type EntryWithPerson = TimeEntryDoc & { fullName: string; email: string | null };

/**
 * Live entries starting in [from, to), with whose they are; by person, then start. A row that
 * cannot be a document is reported and left out.
 */
export async function listEntriesWithPeople(
  db: Db,
  query: { orgId: string; userId: string | null; from: Date; to: Date },
  reportUnreadable: ReportUnreadable,
): Promise<EntryWithPerson[]> {
  const conditions: SQL[] = [
    eq(timeEntries.orgId, query.orgId),
    eq(timeEntries.deleted, false),
    gte(timeEntries.startTime, query.from),
    lt(timeEntries.startTime, query.to),
  ];
  if (query.userId) conditions.push(eq(timeEntries.userId, query.userId));
  const rows = await db
    .select({ entry: timeEntries, person: users })
    .from(timeEntries)
    .innerJoin(users, eq(users.id, timeEntries.userId))
    .where(and(...conditions))
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id), asc(timeEntries.startTime));
  return rows.flatMap(({ entry, person }) =>
    readDocuments<WireDoc<TimeEntryDoc>>(timeEntryReading, [entry], reportUnreadable).map(
      (read) => {
        const { _deleted, ...doc } = read;
        void _deleted;
        return { ...doc, fullName: fullName(person), email: person.email };
      },
    ),
  );
}
