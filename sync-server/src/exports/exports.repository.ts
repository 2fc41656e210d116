import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { auditLog, exportChunks, exportJobs } from '@platform/schema/db';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Database, Db, Tx } from '../db/open-database.ts';
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

/**
 * A run takes the export over: only while it is queued or running (a retry after a lost lease
 * finds it running), with a new run id, from nothing (chunks an earlier run left are removed).
 * The row's lock is held to the end of the transaction, so an older run's chunk write waits and
 * then matches nothing. Answers the export and the run id, or null if it has ended.
 */
export async function takeOverExport(tx: Tx, id: string) {
  const [found] = await tx.select().from(exportJobs).where(eq(exportJobs.id, id)).for('update');
  if (!found || (found.status !== 'queued' && found.status !== 'running')) return null;
  const runId = randomUUID();
  await tx
    .update(exportJobs)
    .set({ status: 'running', runId, rowsDone: 0, bytes: 0, updatedAt: new Date() })
    .where(eq(exportJobs.id, id));
  await tx.delete(exportChunks).where(eq(exportChunks.exportId, id));
  return { row: found, runId };
}

export async function latestExports(db: Db, orgId: string) {
  return db
    .select()
    .from(exportJobs)
    .where(eq(exportJobs.orgId, orgId))
    .orderBy(desc(exportJobs.createdAt), desc(exportJobs.id))
    .limit(5);
}

type RunValues = Partial<
  Pick<ExportRow, 'status' | 'rowsTotal' | 'rowsDone' | 'bytes' | 'failureMessage' | 'finishedAt'>
>;

/** Writes the run's progress or end — only while the run still owns the export. Answers that. */
export async function updateOwnExport(
  db: Db | Tx,
  id: string,
  runId: string,
  values: RunValues,
): Promise<boolean> {
  const rows = await db
    .update(exportJobs)
    .set({ ...values, updatedAt: new Date() })
    .where(
      and(
        eq(exportJobs.id, id),
        eq(exportJobs.runId, runId),
        sql`${exportJobs.status} = 'running'`,
      ),
    )
    .returning({ id: exportJobs.id });
  return rows.length > 0;
}

/**
 * One chunk of the run's archive, written only while the run owns the export: the export's row
 * is share-locked for the insert, so a take-over (which holds it for update) is either wholly
 * before it (nothing written) or wholly after it (the chunk removed with the rest).
 */
export async function insertOwnChunk(
  db: Db,
  exportId: string,
  runId: string,
  seq: number,
  body: Buffer,
): Promise<boolean> {
  const rows = rowsOf<{ seq: number }>(
    await db.execute(sql`
      insert into export_chunks (export_id, seq, body)
      select e.id, ${seq}, ${body} from export_jobs e
      where e.id = ${exportId} and e.run_id = ${runId} and e.status = 'running'
      for share
      returning seq`),
  );
  return rows.length > 0;
}

/**
 * An export ends failed (a run's error, or its job failed for good): its chunks go and the end is
 * written in one transaction — with `runId`, only while that run owns it; without, only while it
 * has not ended.
 */
export async function failExport(db: Db, id: string, runId: string | null, message: string) {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(exportJobs).where(eq(exportJobs.id, id)).for('update');
    if (!row || (row.status !== 'queued' && row.status !== 'running')) return;
    if (runId !== null && row.runId !== runId) return;
    await tx.delete(exportChunks).where(eq(exportChunks.exportId, id));
    await tx
      .update(exportJobs)
      .set({
        status: 'failed',
        failureMessage: message,
        finishedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(exportJobs.id, id));
  });
}

/**
 * The run's export is done — if the run still owns it — and the organisation keeps only its
 * `keep` newest archives: older ones expire now, and the prune removes their chunks after the
 * grace (their records stay, as the audit's). Answers whether the run's end was written.
 */
export async function finishExport(
  db: Db,
  id: string,
  runId: string,
  values: { bytes: number; rowsDone: number },
  keep: number,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const done = await updateOwnExport(tx, id, runId, {
      ...values,
      status: 'done',
      finishedAt: now,
    });
    if (!done) return false;
    const [row] = await tx
      .select({ orgId: exportJobs.orgId })
      .from(exportJobs)
      .where(eq(exportJobs.id, id));
    // Expired now: no new download starts. Their chunks go with the prune, an hour on, so a
    // download already under way is not cut short (ARCHIVE_GRACE_MS).
    await tx.execute(sql`
      update export_jobs set expires_at = ${now.toISOString()}::timestamptz, updated_at = now()
      where org_id = ${row!.orgId} and status = 'done' and expires_at > ${now.toISOString()}::timestamptz
        and id not in (
          select id from export_jobs where org_id = ${row!.orgId} and status = 'done'
          order by created_at desc, id desc limit ${keep})`);
    return true;
  });
}

/** One chunk of the archive, or none past its end. */
export async function exportChunk(db: Db, exportId: string, seq: number) {
  const [row] = await db
    .select({ body: exportChunks.body })
    .from(exportChunks)
    .where(and(eq(exportChunks.exportId, exportId), eq(exportChunks.seq, seq)));
  return row ? Buffer.from(row.body) : null;
}

/**
 * How long an expired archive's chunks stay: a download that started before it expired (the
 * list's sixth archive expires when a newer one is done) reads to its end.
 */
export const ARCHIVE_GRACE_MS = 60 * 60 * 1000;

/**
 * Archives expired for longer than the grace lose their chunks (the record stays, as the
 * audit's). Answers how many.
 */
export async function dropExpiredArchives(db: Db, now: Date): Promise<number> {
  const before = new Date(now.getTime() - ARCHIVE_GRACE_MS);
  const rows = rowsOf<{ export_id: string }>(
    await db.execute(sql`
      delete from export_chunks c using export_jobs e
      where e.id = c.export_id and e.expires_at < ${before.toISOString()}::timestamptz
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

const dialect = new PgDialect();

/** A section's rows in its keys' order, a page at a time through the database's cursor. */
export function sectionCursor(
  pagesOf: NonNullable<Database['pagesOf']>,
  rows: SQL,
  pageRows: number,
): AsyncIterable<Array<Record<string, string>>> {
  const query = dialect.sqlToQuery(sql`select * from (${rows}) s order by s.k1, s.k2`);
  return pagesOf(query.sql, query.params, pageRows) as AsyncIterable<Array<Record<string, string>>>;
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
    /**
     * A switched session's people at the keyboard, named beside the actor: the admin who
     * impersonates (as the team audit names them), and whoever switched first (guardian or admin).
     */
    impersonatorUserId: string | null;
    switchedFrom: string | null;
    action: 'export-create' | 'export-download';
    exportId: string;
  },
) {
  await db.insert(auditLog).values({
    orgId: entry.orgId,
    actorUserId: entry.actorUserId,
    subjectUserId: entry.actorUserId,
    action: entry.action,
    detail: {
      exportId: entry.exportId,
      impersonatorUserId: entry.impersonatorUserId,
      switchedFrom: entry.switchedFrom,
    },
  });
}

/**
 * An export queued or running that has not moved since `staleBefore` was left by a run that died
 * with its job: it is said failed, so it does not block the organisation's next export for ever.
 */
export async function failStaleExports(tx: Tx, orgId: string, staleBefore: Date, message: string) {
  const now = new Date();
  const stale = await tx
    .update(exportJobs)
    .set({ status: 'failed', failureMessage: message, finishedAt: now, updatedAt: now })
    .where(
      and(
        eq(exportJobs.orgId, orgId),
        sql`${exportJobs.status} in ('queued', 'running')`,
        sql`${exportJobs.updatedAt} < ${staleBefore.toISOString()}::timestamptz`,
      ),
    )
    .returning({ id: exportJobs.id });
  for (const { id } of stale) await tx.delete(exportChunks).where(eq(exportChunks.exportId, id));
}

/** Exports still being made in the organisation. */
export async function exportsWaiting(db: Db | Tx, orgId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(exportJobs)
    .where(and(eq(exportJobs.orgId, orgId), sql`${exportJobs.status} in ('queued', 'running')`));
  return row?.n ?? 0;
}
