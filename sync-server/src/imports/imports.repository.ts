import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { importChunks, importJobs } from '@platform/schema/db';
import type { ImportKind } from '@platform/schema/imports/import-rules';
import type { Db, Tx } from '../db/open-database.ts';

export type ImportRow = typeof importJobs.$inferSelect;

export async function insertImport(
  db: Db,
  values: {
    orgId: string;
    kind: ImportKind;
    fileName: string;
    totalBytes: number;
    createdByUserId: string;
  },
): Promise<ImportRow> {
  const [row] = await db
    .insert(importJobs)
    .values({ ...values, status: 'uploading' })
    .returning();
  if (!row) throw new Error('import insert returned nothing');
  return row;
}

/** The uploads this person has open (still sending) that had a chunk since `since`. */
export async function openUploadsOf(
  db: Db,
  who: { orgId: string; userId: string },
  since: Date,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(importJobs)
    .where(
      and(
        eq(importJobs.orgId, who.orgId),
        eq(importJobs.createdByUserId, who.userId),
        eq(importJobs.status, 'uploading'),
        sql`${importJobs.updatedAt} > ${since.toISOString()}::timestamptz`,
      ),
    );
  return row?.n ?? 0;
}

/** An import of this organisation, by id; another organisation's id finds nothing. */
export async function findImport(db: Db | Tx, orgId: string, id: string) {
  const [row] = await db
    .select()
    .from(importJobs)
    .where(and(eq(importJobs.orgId, orgId), eq(importJobs.id, id)));
  return row;
}

export async function lockImport(tx: Tx, id: string) {
  const [row] = await tx.select().from(importJobs).where(eq(importJobs.id, id)).for('update');
  return row;
}

export async function latestImports(db: Db, orgId: string, kinds: readonly ImportKind[]) {
  if (kinds.length === 0) return [];
  return db
    .select()
    .from(importJobs)
    .where(and(eq(importJobs.orgId, orgId), inArray(importJobs.kind, [...kinds])))
    .orderBy(desc(importJobs.createdAt), desc(importJobs.id))
    .limit(10);
}

/** How many chunks have arrived (the next one's number) and their bytes. */
export async function chunkCount(tx: Tx, importId: string) {
  const [row] = await tx
    .select({
      count: sql<number>`count(*)::int`,
      bytes: sql<number>`coalesce(sum(length(${importChunks.body})), 0)::int`,
    })
    .from(importChunks)
    .where(eq(importChunks.importId, importId));
  return { count: row?.count ?? 0, bytes: row?.bytes ?? 0 };
}

/** A chunk stored; the same chunk sent again (its answer was lost) replaces itself. */
export async function putChunk(tx: Tx, importId: string, seq: number, body: Buffer) {
  await tx
    .insert(importChunks)
    .values({ importId, seq, body })
    .onConflictDoUpdate({ target: [importChunks.importId, importChunks.seq], set: { body } });
}

export async function chunksOf(db: Db, importId: string): Promise<Buffer[]> {
  const rows = await db
    .select({ body: importChunks.body })
    .from(importChunks)
    .where(eq(importChunks.importId, importId))
    .orderBy(asc(importChunks.seq));
  return rows.map((row) => Buffer.from(row.body));
}

export async function deleteChunks(db: Db | Tx, importId: string) {
  await db.delete(importChunks).where(eq(importChunks.importId, importId));
}

export async function updateImport(
  db: Db | Tx,
  id: string,
  values: Partial<
    Pick<
      ImportRow,
      | 'status'
      | 'receivedBytes'
      | 'rowsTotal'
      | 'rowsDone'
      | 'rowErrors'
      | 'result'
      | 'failureMessage'
      | 'finishedAt'
    >
  >,
) {
  await db
    .update(importJobs)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(importJobs.id, id));
}

/**
 * The chunks no job will read: of imports that ended, and of uploads left unfinished before
 * `before` (a closed tab). Answers how many imports lost theirs.
 */
export async function dropUnreadChunks(db: Db, before: Date): Promise<number> {
  const rows = await db.execute(sql`
    with abandoned as (
      update import_jobs set status = 'failed', failure_message = 'The file stopped arriving.',
        finished_at = now(), updated_at = now()
      where status = 'uploading' and updated_at < ${before.toISOString()}::timestamptz
      returning id)
    delete from import_chunks c using import_jobs i
    where i.id = c.import_id
      and (i.status in ('done', 'refused', 'failed') or i.id in (select id from abandoned))
    returning c.import_id`);
  const list = Array.isArray(rows) ? rows : ((rows as { rows?: unknown[] }).rows ?? []);
  return new Set((list as Array<{ import_id: string }>).map((row) => row.import_id)).size;
}
