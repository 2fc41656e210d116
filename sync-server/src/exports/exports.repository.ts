import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { auditLog, exportChunks, exportJobs } from '@platform/schema/db';
import type { Db, Tx } from '../db/open-database.ts';
import { rowsOf } from '../db/open-database.ts';

export type ExportRow = typeof exportJobs.$inferSelect;

export async function insertExport(
  db: Db | Tx,
  values: { orgId: string; createdByUserId: string; expiresAt: Date },
): Promise<ExportRow> {
  const [row] = await db
    .insert(exportJobs)
    .values({ ...values, status: 'queued' })
    .returning();
  if (!row) throw new Error('export insert returned nothing');
  return row;
}

export async function findExport(db: Db | Tx, orgId: string, id: string) {
  const [row] = await db
    .select()
    .from(exportJobs)
    .where(and(eq(exportJobs.orgId, orgId), eq(exportJobs.id, id)));
  return row;
}

export async function lockExport(tx: Tx, id: string) {
  const [row] = await tx.select().from(exportJobs).where(eq(exportJobs.id, id)).for('update');
  return row;
}

export async function latestExports(db: Db, orgId: string) {
  return db
    .select()
    .from(exportJobs)
    .where(eq(exportJobs.orgId, orgId))
    .orderBy(desc(exportJobs.createdAt), desc(exportJobs.id))
    .limit(5);
}

export async function updateExport(
  db: Db | Tx,
  id: string,
  values: Partial<
    Pick<ExportRow, 'status' | 'rowsTotal' | 'rowsDone' | 'bytes' | 'failureMessage' | 'finishedAt'>
  >,
) {
  await db
    .update(exportJobs)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(exportJobs.id, id));
}

export async function insertExportChunk(db: Db, exportId: string, seq: number, body: Buffer) {
  await db.insert(exportChunks).values({ exportId, seq, body });
}

/** One chunk of the archive, or none past its end. */
export async function exportChunk(db: Db, exportId: string, seq: number) {
  const [row] = await db
    .select({ body: exportChunks.body })
    .from(exportChunks)
    .where(and(eq(exportChunks.exportId, exportId), eq(exportChunks.seq, seq)));
  return row ? Buffer.from(row.body) : null;
}

export async function deleteExportChunks(db: Db | Tx, exportId: string) {
  await db.delete(exportChunks).where(eq(exportChunks.exportId, exportId));
}

/** Expired exports lose their archive (the record stays, as the audit's). Answers how many. */
export async function dropExpiredArchives(db: Db, now: Date): Promise<number> {
  const rows = rowsOf<{ export_id: string }>(
    await db.execute(sql`
      delete from export_chunks c using export_jobs e
      where e.id = c.export_id and e.expires_at < ${now.toISOString()}::timestamptz
      returning c.export_id`),
  );
  return new Set(rows.map((row) => row.export_id)).size;
}

/** How many rows a section has: the progress bar's whole. */
export async function sectionCount(db: Db, rows: SQL): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from (${rows}) s`),
  );
  return row?.n ?? 0;
}

/** The next page of a section after the keys (k1, k2) last read. */
export async function sectionPage(
  db: Db,
  rows: SQL,
  after: { k1: string; k2: string } | null,
  limit: number,
): Promise<Array<Record<string, string>>> {
  return rowsOf<Record<string, string>>(
    await db.execute(sql`
      select * from (${rows}) s
      ${after ? sql`where (s.k1, s.k2) > (${after.k1}, ${after.k2})` : sql``}
      order by s.k1, s.k2
      limit ${limit}`),
  );
}

export async function auditExport(
  db: Db | Tx,
  entry: {
    orgId: string;
    actorUserId: string;
    action: 'export-create' | 'export-download';
    exportId: string;
  },
) {
  await db.insert(auditLog).values({
    orgId: entry.orgId,
    actorUserId: entry.actorUserId,
    subjectUserId: entry.actorUserId,
    action: entry.action,
    detail: { exportId: entry.exportId },
  });
}

export async function exportsWaiting(db: Db | Tx, orgId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(exportJobs)
    .where(and(eq(exportJobs.orgId, orgId), sql`${exportJobs.status} in ('queued', 'running')`));
  return row?.n ?? 0;
}
