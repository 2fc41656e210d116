import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Checkpoint } from '@platform/schema/sync/sync.zod';
import type { Db } from '../db/open-database.ts';
import type { Scope } from './actor.ts';
import type { AnyReplicatedCollection, WireDoc } from './collection-definition.ts';

export type PullResult = {
  documents: Array<WireDoc<{ id: string; orgId: string }>>;
  checkpoint: Checkpoint | null;
};

/**
 * Documents in change order after `checkpoint`. Hands out only rows written by transactions
 * older than every transaction still in flight (`txid < pg_snapshot_xmin`): a transaction that
 * commits after this pull has a txid at or above that bound, so it sorts after the checkpoint
 * returned here and is never skipped. The bound is read inside the same statement, whose
 * snapshot is the one `pg_current_snapshot()` describes, so rows and bound agree. Rows of one
 * transaction share a txid; the id breaks the tie, so none is lost.
 */
export async function pullChanges(
  db: Db,
  collection: AnyReplicatedCollection,
  scope: Scope,
  checkpoint: Checkpoint | null,
  batchSize: number,
): Promise<PullResult> {
  const { table } = collection;
  const conditions: SQL[] = [
    eq(table.orgId, scope.orgId),
    sql`${table.txid} < pg_snapshot_xmin(pg_current_snapshot())`,
  ];
  if (scope.ownerIds) conditions.push(inArray(collection.ownerColumn, [...scope.ownerIds]));
  if (checkpoint)
    conditions.push(
      sql`(${table.txid}, ${table.id}) > (${String(checkpoint.lsn)}::xid8, ${checkpoint.id}::uuid)`,
    );
  const rows = await db
    .select()
    .from(table)
    .where(and(...conditions))
    .orderBy(asc(table.txid), asc(table.id))
    .limit(batchSize);
  const last = rows.at(-1) as { id: string; txid: string } | undefined;
  return {
    documents: rows.map((row) => collection.toDoc(row)),
    checkpoint: last ? { id: last.id, lsn: Number(last.txid) } : checkpoint,
  };
}
