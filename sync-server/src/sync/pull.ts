import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Checkpoint } from '@platform/schema/sync/sync.zod';
import type { Db } from '../db/open-database.ts';
import type { Scope } from './actor.ts';
import type { AnyReplicatedCollection, WireDoc } from './collection-definition.ts';
import { pullBound } from './pull-bound.ts';
import { readDocument, type ReportUnreadable } from './read-document.ts';

export type PullResult = {
  documents: Array<WireDoc<{ id: string; orgId: string }>>;
  checkpoint: Checkpoint | null;
};

/**
 * Documents in change order after `checkpoint`. Hands out only rows written by transactions
 * older than every transaction still in flight that may write to this database
 * (`txid < pullBound()`, decision 0076): a transaction that commits after this pull has a txid
 * at or above that bound, so it sorts after the checkpoint returned here and is never skipped.
 * The bound is read inside the same statement, whose snapshot is the one
 * `pg_current_snapshot()` describes, so rows and bound agree. Rows of one
 * transaction share a txid; the id breaks the tie, so none is lost.
 *
 * A row that cannot be a document (read-document.ts) is reported and passed: the checkpoint
 * moves beyond it, and the page is filled from the rows after it — a device takes a page
 * shorter than it asked for as the end of the feed (RxDB), so a short page would hold back
 * what follows. Each further SELECT reads after the last row taken, under its own bound.
 */
export async function pullChanges(
  db: Db,
  collection: AnyReplicatedCollection,
  scope: Scope,
  checkpoint: Checkpoint | null,
  batchSize: number,
  reportUnreadable: ReportUnreadable = () => {},
): Promise<PullResult> {
  const documents: PullResult['documents'] = [];
  let position = checkpoint;
  for (;;) {
    const rows = await rowsAfter(db, collection, scope, position, batchSize);
    for (const row of rows) {
      position = { id: row.id, lsn: Number(row.txid) };
      const read = readDocument(collection, row);
      if ('doc' in read) documents.push(read.doc);
      else reportUnreadable({ collection: collection.name, id: row.id, reason: read.reason });
      if (documents.length === batchSize) return { documents, checkpoint: position };
    }
    if (rows.length < batchSize) return { documents, checkpoint: position };
  }
}

async function rowsAfter(
  db: Db,
  collection: AnyReplicatedCollection,
  scope: Scope,
  checkpoint: Checkpoint | null,
  limit: number,
): Promise<Array<{ id: string; txid: string }>> {
  const { table } = collection;
  const conditions: SQL[] = [eq(table.orgId, scope.orgId), sql`${table.txid} < ${pullBound()}`];
  if (scope.ownerIds) conditions.push(inArray(collection.ownerColumn, [...scope.ownerIds]));
  if (scope.rowFilter) conditions.push(scope.rowFilter);
  if (checkpoint)
    conditions.push(
      sql`(${table.txid}, ${table.id}) > (${String(checkpoint.lsn)}::xid8, ${checkpoint.id}::uuid)`,
    );
  const rows = await db
    .select()
    .from(table)
    .where(and(...conditions))
    .orderBy(asc(table.txid), asc(table.id))
    .limit(limit);
  return rows as Array<{ id: string; txid: string }>;
}
