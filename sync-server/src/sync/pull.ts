import { and, asc, eq, getTableColumns, getTableName, inArray, sql, type SQL } from 'drizzle-orm';
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
  let lookedAgain = 0;
  for (;;) {
    const { rows, bound } = await rowsAfter(db, collection, scope, position, batchSize);
    for (const row of rows) {
      position = { id: row.id, lsn: Number(row.txid) };
      const read = readDocument(collection, row);
      if ('doc' in read) documents.push(read.doc);
      else reportUnreadable({ collection: collection.name, id: row.id, reason: read.reason });
      if (documents.length === batchSize) return { documents, checkpoint: position };
    }
    if (rows.length === batchSize) continue;
    // The end of the feed as this statement saw it. If a transaction that had already ended
    // when the statement asked about it held its bound, rows committed after that one began
    // were left for a later pull — which the device would only make at the next change notice,
    // perhaps long after (decision 0076). Another statement has a snapshot of its own.
    if (bound.heldByEnded && lookedAgain < LOOKS_AGAIN) {
      lookedAgain += 1;
      continue;
    }
    return { documents, checkpoint: position };
  }
}

/**
 * How many more statements a pull runs after one whose bound was held by a transaction that
 * had ended: each new statement has its own snapshot, in which that transaction is no longer
 * running. More than one is needed only when another one ends inside the next statement too;
 * the bound is still safe if the pull stops there.
 */
const LOOKS_AGAIN = 2;

/** One page of rows after `checkpoint` and what the pull needs to know of its bound. */
async function rowsAfter(
  db: Db,
  collection: AnyReplicatedCollection,
  scope: Scope,
  checkpoint: Checkpoint | null,
  limit: number,
): Promise<{ rows: Array<{ id: string; txid: string }>; bound: { heldByEnded: boolean } }> {
  const answer = await pullStatement(db, collection, scope, checkpoint, limit);
  const [first] = answer;
  if (!first) throw new Error('sync: the pull statement returned no bound');
  return {
    // An empty page is the bound's row alone, every column of the page null (LEFT JOIN).
    rows: (answer as unknown as Array<{ id: string | null; txid: string }>).flatMap((row) =>
      row.id !== null ? [row as { id: string; txid: string }] : [],
    ),
    bound: { heldByEnded: first.heldByEnded },
  };
}

/**
 * One page of rows after `checkpoint`, below the bound, and what the pull needs to know of the
 * bound: the page is a LATERAL subquery of the one row that holds the bound, so that is known
 * even when the page is empty. `offset 0` keeps PostgreSQL from folding that row's subquery
 * into the page, which would look at the bound's function once where the page reads it and
 * again for each place the pull learns of it — looks that could disagree
 * (`pull-bound.test.ts` counts them). The page goes by the table's own name, so the outer
 * select takes the table's columns as they are: selected through a subquery's alias, drizzle
 * maps every value through a proxy (measured: 100 pages ~50 % slower in Node).
 *
 * `heldByEnded`: the bound is a transaction that was running at the statement's snapshot (not
 * the snapshot's xmax) and had committed or aborted by the time the statement asked after it
 * (`sync_transaction_ended`, migration 0038 — `pg_xact_status`, false where this role may not
 * call it — read once the bound is known: the outer subquery's projection needs the inner
 * one's row first). One still in progress then is a writer whose rows come with the change
 * notice its commit sends, or one this database cannot place (decision 0076): no second look.
 * Not asked on a standby, where the bound is the snapshot's xmin (decision 0076), nor of xmax,
 * which may not be a transaction yet (`pg_xact_status` would throw).
 *
 * Exported as it is sent, for the initial-pull benchmark to explain.
 */
export function pullStatement(
  db: Db,
  collection: AnyReplicatedCollection,
  scope: Scope,
  checkpoint: Checkpoint | null,
  limit: number,
) {
  const { table } = collection;
  const conditions: SQL[] = [eq(table.orgId, scope.orgId), sql`${table.txid} < pull_bound.xid`];
  if (scope.ownerIds) conditions.push(inArray(collection.ownerColumn, [...scope.ownerIds]));
  if (scope.rowFilter) conditions.push(scope.rowFilter);
  if (checkpoint)
    conditions.push(
      sql`(${table.txid}, ${table.id}) > (${String(checkpoint.lsn)}::xid8, ${checkpoint.id}::uuid)`,
    );
  const page = db
    .select()
    .from(table)
    .where(and(...conditions))
    .orderBy(asc(table.txid), asc(table.id))
    .limit(limit)
    .as(getTableName(table));
  return db
    .select({ heldByEnded: sql<boolean>`pull_bound.held_by_ended`, ...getTableColumns(table) })
    .from(
      sql`(
        select looked.xid,
          case
            when looked.xid < pg_snapshot_xmax(pg_current_snapshot()) and not pg_is_in_recovery()
            then sync_transaction_ended(looked.xid)
            else false
          end as held_by_ended
        from (select ${pullBound()} as xid offset 0) as looked
        offset 0
      ) as pull_bound`,
    )
    .leftJoinLateral(page, sql`true`)
    .orderBy(asc(table.txid), asc(table.id));
}
