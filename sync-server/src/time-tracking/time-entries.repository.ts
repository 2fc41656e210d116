import { and, desc, eq, gt, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { timeEntries } from '@platform/schema/db';
import {
  timeEntryDocSchema,
  type TimeEntryDoc,
} from '@platform/schema/time-tracking/time-entry.zod';
import type { Db, Tx } from '../db/open-database.ts';
import { excludedSet } from '../db/upsert.ts';
import type { WireDoc } from '../sync/collection-definition.ts';
import {
  readDocuments,
  type DocumentReading,
  type ReportUnreadable,
} from '../sync/read-document.ts';

export type TimeEntryRow = typeof timeEntries.$inferSelect;

export function timeEntryToDoc(row: TimeEntryRow): WireDoc<TimeEntryDoc> {
  return {
    id: row.id,
    orgId: row.orgId,
    userId: row.userId,
    startTime: row.startTime.toISOString(),
    endTime: row.endTime ? row.endTime.toISOString() : null,
    breakIntervals: row.breakIntervals.map((b) => ({ startTime: b.startTime, endTime: b.endTime })),
    updatedAt: row.updatedAt.toISOString(),
    _deleted: row.deleted,
  };
}

/**
 * Time entries as devices receive them — the reads that list many (the list, the export) pass
 * a stored row that cannot be one, as the pull does (decision 0040), instead of failing whole.
 */
export const timeEntryReading: DocumentReading = {
  name: 'time-entries',
  toDoc: timeEntryToDoc,
  docSchema: timeEntryDocSchema,
};

/** Stores every document in one statement (inserting new ones, replacing known ones). */
export async function upsertTimeEntries(tx: Tx, docs: Array<WireDoc<TimeEntryDoc>>): Promise<void> {
  if (docs.length === 0) return;
  await tx
    .insert(timeEntries)
    .values(
      docs.map((doc) => ({
        id: doc.id,
        orgId: doc.orgId,
        userId: doc.userId,
        startTime: new Date(doc.startTime),
        endTime: doc.endTime ? new Date(doc.endTime) : null,
        breakIntervals: doc.breakIntervals,
        updatedAt: new Date(doc.updatedAt),
        deleted: doc._deleted,
      })),
    )
    // A document never changes organisation: org_id is not among the columns an update sets.
    .onConflictDoUpdate({
      target: timeEntries.id,
      set: excludedSet(timeEntries, [
        'userId',
        'startTime',
        'endTime',
        'breakIntervals',
        'updatedAt',
        'deleted',
      ]),
    });
}

/**
 * Transaction-level advisory locks on `keys`, in the given order. A time entry's id is the key
 * push.ts locks (same hash), so API writes and replication pushes of one entry take turns.
 */
export async function lockKeys(tx: Tx, keys: string[]): Promise<void> {
  for (const key of keys)
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}::text, 0))`);
}

/** The advisory-lock key of one person's entries in one organisation (see lockPeopleEntries). */
export const personEntriesKey = (orgId: string, userId: string) =>
  `time-entries-of:${orgId}:${userId}`;

/**
 * Serialises every writer of these people's entries: a clock move reads the person's state
 * and then writes, the overlap check reads their neighbouring entries, and a second writer
 * must not read before the first has committed. One statement, keys in sorted order, so
 * writers of several people never wait on each other in a cycle. Every writer takes it
 * *first* — push.ts through the collection's `serialiseOn` before any entry id, the
 * /api/time-tracking actions before reading the clock — so no lock taken earlier can close a
 * cycle (decision 0045). Taking it again later in the same transaction returns at once.
 */
export async function lockPeopleEntries(
  tx: Tx,
  people: Array<{ orgId: string; userId: string }>,
): Promise<void> {
  const keys = [...new Set(people.map((p) => personEntriesKey(p.orgId, p.userId)))].sort();
  if (keys.length === 0) return;
  await tx.execute(
    sql`select count(pg_advisory_xact_lock(hashtextextended(key, 0))) from unnest(array[${sql.join(
      keys.map((key) => sql`${key}`),
      sql`, `,
    )}]::text[]) as key`,
  );
}

/**
 * Live entries of the same person that overlap any of `spans` (a running span is open-ended)
 * — the only entries the overlap rule needs to see. One query however many spans.
 */
export async function findOverlapCandidates(
  tx: Tx,
  spans: Array<Pick<TimeEntryDoc, 'orgId' | 'userId' | 'startTime' | 'endTime'>>,
): Promise<Array<WireDoc<TimeEntryDoc>>> {
  if (spans.length === 0) return [];
  const near = spans.map((span) =>
    and(
      eq(timeEntries.orgId, span.orgId),
      eq(timeEntries.userId, span.userId),
      span.endTime === null ? undefined : lt(timeEntries.startTime, new Date(span.endTime)),
      or(isNull(timeEntries.endTime), gt(timeEntries.endTime, new Date(span.startTime))),
    ),
  );
  const rows = await tx
    .select()
    .from(timeEntries)
    .where(and(eq(timeEntries.deleted, false), or(...near)));
  return rows.map(timeEntryToDoc);
}

export async function findTimeEntry(tx: Tx, id: string): Promise<WireDoc<TimeEntryDoc> | null> {
  const [row] = await tx.select().from(timeEntries).where(eq(timeEntries.id, id));
  return row ? timeEntryToDoc(row) : null;
}

/**
 * All a person's clock state depends on, in one row: their running entry (the latest started,
 * should two devices have left two) or else their latest entry.
 */
export async function findClockEntries(
  db: Db | Tx,
  orgId: string,
  userId: string,
): Promise<Array<WireDoc<TimeEntryDoc>>> {
  const rows = await db
    .select()
    .from(timeEntries)
    .where(
      and(
        eq(timeEntries.orgId, orgId),
        eq(timeEntries.userId, userId),
        eq(timeEntries.deleted, false),
      ),
    )
    .orderBy(sql`${timeEntries.endTime} is null desc`, desc(timeEntries.startTime))
    .limit(1);
  return rows.map(timeEntryToDoc);
}

/**
 * Live entries overlapping [from, to), newest first; `userId` null means everyone in the
 * organisation. A row that cannot be a document is reported and left out.
 */
export async function listTimeEntries(
  db: Db,
  query: {
    orgId: string;
    userId: string | null;
    from?: string | undefined;
    to?: string | undefined;
  },
  reportUnreadable: ReportUnreadable,
): Promise<Array<WireDoc<TimeEntryDoc>>> {
  const conditions: SQL[] = [eq(timeEntries.orgId, query.orgId), eq(timeEntries.deleted, false)];
  if (query.userId) conditions.push(eq(timeEntries.userId, query.userId));
  if (query.to) conditions.push(lt(timeEntries.startTime, new Date(query.to)));
  const runningAfter = query.from
    ? or(isNull(timeEntries.endTime), gt(timeEntries.endTime, new Date(query.from)))
    : undefined;
  if (runningAfter) conditions.push(runningAfter);
  const rows = await db
    .select()
    .from(timeEntries)
    .where(and(...conditions))
    .orderBy(desc(timeEntries.startTime), desc(timeEntries.id));
  return readDocuments(timeEntryReading, rows, reportUnreadable);
}
