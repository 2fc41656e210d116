import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import archiver from 'archiver';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { EXPORT_DAYS, exportTexts, type ExportStatus } from '@platform/schema/imports/export.zod';
import { writeCsv } from '@platform/schema/imports/csv';
import type { Database, Db } from '../db/open-database.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { keyboardOf } from '../access/act-for.ts';
import { findOrganization } from '../organizations/organizations.service.ts';
import { Conflict, Forbidden, NotFound } from '../plugins/domain-errors.ts';
import { requireSession } from '../plugins/session.ts';
import { exportSections, type ExportSection } from './export-sections.ts';
import * as repo from './exports.repository.ts';

/**
 * 'Export all data' (issue 17, decision 0072): a job in the queue reads every section of the
 * organisation a page at a time, writes CSV files and everything.json into a zip stream, and the
 * zip goes into the database in 5 MB chunks as it is made — nothing holds the whole archive. The
 * download streams the chunks back, for 7 days; making and downloading are audited.
 */

export type Exporter = {
  orgId: string;
  userId: string;
  /** Who is at the keyboard of a switched session (admin impersonating, or guardian), if any. */
  impersonatorUserId: string | null;
  switchedFrom: string | null;
};

/** Rows read per query, and the archive's chunk size in the database. */
const PAGE_ROWS = 5000;
const CHUNK_BYTES = 5 * 1024 * 1024;
/** Archives kept per organisation: the list's five. A newer one done drops the oldest. */
export const ARCHIVES_KEPT = 5;
/**
 * An export that has not moved for the job's lease (30 minutes; a live run writes its progress
 * every page) was left by a run that died: the next export request says it failed.
 */
const STALE_AFTER_MS = 30 * 60 * 1000;

export async function requireExporter(request: FastifyRequest): Promise<Exporter> {
  const current = await requireSession(request);
  const { session, user, claims } = current;
  if (session.view !== 'org' || !session.orgId || !claims.includes('manage-org-settings'))
    throw new Forbidden(exportTexts.notAllowed);
  return {
    orgId: session.orgId,
    userId: user.id,
    impersonatorUserId: session.impersonatorUserId,
    switchedFrom: keyboardOf(current),
  };
}

const auditOf = (exporter: Exporter) => ({
  orgId: exporter.orgId,
  actorUserId: exporter.userId,
  impersonatorUserId: exporter.impersonatorUserId,
  switchedFrom: exporter.switchedFrom,
});

export async function createExport(
  db: Db,
  jobs: Pick<JobQueue, 'enqueue'>,
  exporter: Exporter,
  now = new Date(),
): Promise<ExportStatus> {
  const row = await db.transaction(async (tx) => {
    // One export at a time per organisation: a second click while one is made is said so.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`export:${exporter.orgId}`}, 0))`,
    );
    await repo.failStaleExports(
      tx,
      exporter.orgId,
      new Date(now.getTime() - STALE_AFTER_MS),
      exportTexts.failed,
    );
    if ((await repo.exportsWaiting(tx, exporter.orgId)) > 0) throw new Conflict(exportTexts.busy);
    const created = await repo.insertExport(tx, {
      orgId: exporter.orgId,
      createdByUserId: exporter.userId,
      expiresAt: new Date(now.getTime() + EXPORT_DAYS * 24 * 60 * 60 * 1000),
    });
    await repo.auditExport(tx, {
      ...auditOf(exporter),
      action: 'export-create',
      exportId: created.id,
    });
    await jobs.enqueue('org-export', { exportId: created.id }, { tx });
    return created;
  });
  return toStatus(row, now);
}

export async function exportStatus(db: Db, exporter: Exporter, id: string) {
  const row = await repo.findExport(db, exporter.orgId, id);
  if (!row) throw new NotFound(exportTexts.notFound);
  return toStatus(row);
}

export async function listExports(db: Db, exporter: Exporter) {
  return { exports: (await repo.latestExports(db, exporter.orgId)).map((row) => toStatus(row)) };
}

function toStatus(row: repo.ExportRow, now = new Date()): ExportStatus {
  return {
    id: row.id,
    status: row.status,
    rowsTotal: row.rowsTotal,
    rowsDone: row.rowsDone,
    bytes: row.bytes,
    failureMessage: row.failureMessage,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt.toISOString(),
    downloadable: row.status === 'done' && row.expiresAt > now,
  };
}

/** The archive as a stream of its chunks (one in memory at a time), audited. */
export async function downloadExport(
  db: Db,
  exporter: Exporter,
  id: string,
): Promise<{ fileName: string; bytes: number; stream: Readable }> {
  const row = await repo.findExport(db, exporter.orgId, id);
  if (!row) throw new NotFound(exportTexts.notFound);
  if (row.status !== 'done') throw new Conflict(exportTexts.notReady);
  if (row.expiresAt <= new Date()) throw new Conflict(exportTexts.expired);
  await repo.auditExport(db, {
    ...auditOf(exporter),
    action: 'export-download',
    exportId: id,
  });
  const stream = Readable.from(
    (async function* () {
      let sent = 0;
      for (let seq = 0; sent < row.bytes; seq++) {
        const chunk = await repo.exportChunk(db, id, seq);
        // Gone part-way (pruned): the download fails as one — never a short file said whole.
        if (!chunk) throw new Error(`export ${id} lost chunk ${seq} while it was downloaded`);
        sent += chunk.length;
        yield chunk;
      }
    })(),
  );
  return {
    fileName: `export-${row.createdAt.toISOString().slice(0, 10)}.zip`,
    bytes: row.bytes,
    stream,
  };
}

/** Cells that a spreadsheet would run as a formula start with a ' (the import takes it off). */
const csvLines = writeCsv;

type RunDeps = {
  db: Db;
  log: Pick<FastifyBaseLogger, 'error'>;
  /** Rows per read and bytes per stored chunk; tests make them small to see many of each. */
  sizes?: { pageRows: number; chunkBytes: number };
  /**
   * A section's rows through one server-side cursor (PostgreSQL): each section is read and
   * sorted once. Without it (PGlite), a page at a time after the last keys — every page sorts
   * the section again, which grows with the square of its size (fine for trying the platform).
   */
  pagesOf?: Database['pagesOf'];
};

/** The run lost the export to a newer run (a retry after a lost lease): it stops, writing nothing. */
class RunTakenOver extends Error {
  constructor() {
    super('the export was taken over by a newer run');
  }
}

/**
 * The job: the whole archive, or (on any error) nothing kept and the export said failed. A run
 * owns the export by its run id from the start: when a retry takes it over, this run's next
 * write matches nothing and it stops without touching what the newer run writes.
 */
export async function runExport(deps: RunDeps, exportId: string): Promise<void> {
  const { db } = deps;
  const { pageRows, chunkBytes } = deps.sizes ?? { pageRows: PAGE_ROWS, chunkBytes: CHUNK_BYTES };
  const taken = await db.transaction((tx) => repo.takeOverExport(tx, exportId));
  if (!taken) return;
  const { row, runId } = taken;
  const write = async (values: Parameters<typeof repo.updateOwnExport>[3]) => {
    if (!(await repo.updateOwnExport(db, exportId, runId, values))) throw new RunTakenOver();
  };
  const archive = archiver('zip', { zlib: { level: 6 } });
  try {
    const org = await findOrganization(db, row.orgId);
    let total = 0;
    for (const section of exportSections)
      total += await repo.sectionCount(db, section.rows(row.orgId));
    // Each row is written twice: its CSV file, and everything.json.
    await write({ rowsTotal: total * 2 });
    let done = 0;
    const advance = async (rows: number) => {
      done += rows;
      await write({ rowsDone: done });
    };
    async function* pagesOf(section: ExportSection) {
      if (deps.pagesOf) {
        for await (const page of repo.sectionCursor(
          deps.pagesOf,
          section.rows(row.orgId),
          pageRows,
        )) {
          if (page.length === 0) continue;
          yield page;
          await advance(page.length);
        }
        return;
      }
      let after: { k1: string; k2: string } | null = null;
      for (;;) {
        const page = await repo.sectionPage(db, section.rows(row.orgId), after, pageRows);
        if (page.length === 0) return;
        yield page;
        await advance(page.length);
        const last = page[page.length - 1]!;
        after = { k1: last.k1 ?? '', k2: last.k2 ?? '' };
        if (page.length < pageRows) return;
      }
    }
    async function* csvOf(section: ExportSection) {
      yield csvLines([[...section.columns]]);
      for await (const page of pagesOf(section))
        yield csvLines(page.map((r) => section.columns.map((column) => r[column] ?? '')));
    }
    async function* everything() {
      yield `{"exportedAt":${JSON.stringify(new Date().toISOString())},"organization":${JSON.stringify(
        {
          id: row.orgId,
          name: org?.label ?? '',
          timezone: org?.attributes.timezone ?? null,
        },
      )}`;
      for (const section of exportSections) {
        yield `,${JSON.stringify(section.key)}:[`;
        let first = true;
        for await (const page of pagesOf(section)) {
          const objects = page.map((r) =>
            JSON.stringify(Object.fromEntries(section.columns.map((c) => [c, r[c] ?? '']))),
          );
          yield `${first ? '' : ','}${objects.join(',')}`;
          first = false;
        }
        yield ']';
      }
      yield '}\n';
    }

    const sink = new ChunkSink(db, exportId, runId, chunkBytes);
    const written = pipeline(archive, sink);
    // Its failure is the run's, seen through `add` or the awaits below — never left unhandled.
    written.catch(() => {});
    // One entry at a time: each file's rows are read only when the zip takes that file. A
    // failure of the chunks' writes (the pipeline) ends the wait too.
    const add = (source: string | Readable, name: string) =>
      Promise.race([written.then(() => {}), entryOf(source, name)]);
    const entryOf = (source: string | Readable, name: string) =>
      new Promise<void>((resolve, reject) => {
        // archiver does not pass on a source stream's error (a read that failed, or this run
        // taken over): the entry would never come, so the source's error ends the wait.
        const failed = (error: unknown) => {
          archive.off('entry', done);
          reject(error);
        };
        const done = () => {
          archive.off('error', failed);
          if (typeof source !== 'string') source.off('error', failed);
          resolve();
        };
        archive.once('entry', done);
        archive.once('error', failed);
        if (typeof source !== 'string') source.once('error', failed);
        archive.append(source, { name });
      });
    await add(readme(org?.label ?? ''), 'README.txt');
    for (const section of exportSections) await add(Readable.from(csvOf(section)), section.file);
    await add(Readable.from(everything()), 'everything.json');
    await Promise.all([archive.finalize(), written]);
    const finished = await repo.finishExport(
      db,
      exportId,
      runId,
      { bytes: sink.bytes, rowsDone: total * 2 },
      ARCHIVES_KEPT,
    );
    if (!finished) throw new RunTakenOver();
  } catch (error) {
    // The zip and its chunk writer are torn down (an entry may be stuck part-way).
    archive.abort();
    archive.destroy();
    // Taken over: the newer run owns the export, and failExport (by run id) leaves it alone.
    if (!(error instanceof RunTakenOver)) deps.log.error({ err: error, exportId }, 'export failed');
    await repo.failExport(db, exportId, runId, exportTexts.failed);
  }
}

/** The job failed for good (every retry used): the export is said failed, its chunks go. */
export const abandonExport = (db: Db, exportId: string) =>
  repo.failExport(db, exportId, null, exportTexts.failed);

/** Writes the archive into the database 5 MB at a time, as it comes (backpressure included). */
class ChunkSink extends Writable {
  bytes = 0;
  private seq = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(
    private readonly db: Db,
    private readonly exportId: string,
    private readonly runId: string,
    private readonly chunkBytes: number,
  ) {
    super();
  }

  override _write(
    chunk: Buffer,
    _encoding: BufferEncoding,
    callback: (error?: Error | null) => void,
  ) {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    this.bytes += chunk.length;
    if (this.pendingBytes < this.chunkBytes) return callback();
    this.flush().then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void) {
    this.flush().then(() => callback(), callback);
  }

  private async flush() {
    if (this.pendingBytes === 0) return;
    const body = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    if (!(await repo.insertOwnChunk(this.db, this.exportId, this.runId, this.seq++, body)))
      throw new RunTakenOver();
  }
}

const readme = (orgName: string) =>
  [
    `Everything ${orgName} keeps on the platform, exported ${new Date().toISOString()}.`,
    '',
    'customers.csv and tags.csv have the columns the CSV imports read: they import into a new',
    "organisation as they are. credits.csv is each customer's punch-card balance per product.",
    "contact-list-members.csv is the contact lists import's shape (make the lists of",
    'contact-lists.csv first, then import it).',
    'people.csv lists everyone on the customer list, also those without an email (children).',
    'The other files: notes, metrics, families, products, coupons, subscriptions, invoices, staff',
    'time entries, bookings and branding. everything.json holds the same rows in one file.',
    "Amounts are in the organisation's currency (e.g. 15.00); times are UTC (ISO 8601).",
    "A cell that begins with = + - or @ is written with a leading ' so spreadsheets show it as",
    "text rather than run it; the imports take that ' off again.",
    'Nothing secret is included: no passwords, tokens, card details or payment-processor keys.',
    '',
  ].join('\r\n');

/** The prune job's part: an expired export's archive is removed (its record stays). */
export const pruneExpiredArchives = (db: Db, now: number) =>
  repo.dropExpiredArchives(db, new Date(now));
