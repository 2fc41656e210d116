import { timeEntries } from '@platform/schema/db';
import type { TimeEntryDoc } from '@platform/schema/time-tracking/time-entry.zod';
import type { Tx } from '../db/open-database.ts';
import { excludedSet } from '../db/upsert.ts';
import type { WireDoc } from '../sync/collection-definition.ts';

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
    .onConflictDoUpdate({
      target: timeEntries.id,
      set: excludedSet(timeEntries, ['orgId', 'userId', 'startTime', 'endTime', 'breakIntervals', 'updatedAt', 'deleted']),
    });
}
