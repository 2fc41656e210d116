import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import archiver from 'archiver';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { EXPORT_DAYS, exportTexts, type ExportStatus } from '@platform/schema/imports/export.zod';
import { writeCsv } from '@platform/schema/imports/csv';
import type { Db } from '../db/open-database.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
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

export type Exporter = { orgId: string; userId: string };

/** Rows read per query, and the archive's chunk size in the database. */
const PAGE_ROWS = 5000;
const CHUNK_BYTES = 5 * 1024 * 1024;

export async function requireExporter(request: FastifyRequest): Promise<Exporter> {
  const { session, user, claims } = await requireSession(request);
  if (session.view !== 'org' || !session.orgId || !claims.includes('manage-org-settings'))
    throw new Forbidden(exportTexts.notAllowed);
  return { orgId: session.orgId, userId: user.id };
}

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
    if ((await repo.exportsWaiting(tx, exporter.orgId)) > 0) throw new Conflict(exportTexts.busy);
    const created = await repo.insertExport(tx, {
      orgId: exporter.orgId,
      createdByUserId: exporter.userId,
      expiresAt: new Date(now.getTime() + EXPORT_DAYS * 24 * 60 * 60 * 1000),
    });
    await repo.auditExport(tx, {
      orgId: exporter.orgId,
      actorUserId: exporter.userId,
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
    orgId: exporter.orgId,
    actorUserId: exporter.userId,
    action: 'export-download',
    exportId: id,
  });
  const stream = Readable.from(
    (async function* () {
      for (let seq = 0; ; seq++) {
        const chunk = await repo.exportChunk(db, id, seq);
        if (!chunk) return;
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

type RunDeps = { db: Db; log: Pick<FastifyBaseLogger, 'error'> };

/** The job: the whole archive, or (on any error) nothing kept and the export said failed. */
export async function runExport(deps: RunDeps, exportId: string): Promise<void> {
  const { db } = deps;
  const row = await db.transaction(async (tx) => {
    const found = await repo.lockExport(tx, exportId);
    if (!found || (found.status !== 'queued' && found.status !== 'running')) return null;
    await repo.updateExport(tx, exportId, { status: 'running', rowsDone: 0, bytes: 0 });
    // A run that crashed part-way left chunks: this one starts from nothing.
    await repo.deleteExportChunks(tx, exportId);
    return found;
  });
  if (!row) return;
  try {
    const org = await findOrganization(db, row.orgId);
    let total = 0;
    for (const section of exportSections)
      total += await repo.sectionCount(db, section.rows(row.orgId));
    // Each row is written twice: its CSV file, and everything.json.
    await repo.updateExport(db, exportId, { rowsTotal: total * 2 });
    let done = 0;
    const advance = async (rows: number) => {
      done += rows;
      await repo.updateExport(db, exportId, { rowsDone: done });
    };
    async function* pagesOf(section: ExportSection) {
      let after: { k1: string; k2: string } | null = null;
      for (;;) {
        const page = await repo.sectionPage(db, section.rows(row!.orgId), after, PAGE_ROWS);
        if (page.length === 0) return;
        yield page;
        await advance(page.length);
        const last = page[page.length - 1]!;
        after = { k1: last.k1 ?? '', k2: last.k2 ?? '' };
        if (page.length < PAGE_ROWS) return;
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
          id: row!.orgId,
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

    const archive = archiver('zip', { zlib: { level: 6 } });
    const sink = new ChunkSink(db, exportId);
    const written = pipeline(archive, sink);
    // One entry at a time: each file's rows are read only when the zip takes that file.
    const add = (source: string | Readable, name: string) =>
      new Promise<void>((resolve, reject) => {
        const done = () => {
          archive.off('error', reject);
          resolve();
        };
        archive.once('entry', done);
        archive.once('error', reject);
        archive.append(source, { name });
      });
    await add(readme(org?.label ?? ''), 'README.txt');
    for (const section of exportSections) await add(Readable.from(csvOf(section)), section.file);
    await add(Readable.from(everything()), 'everything.json');
    await Promise.all([archive.finalize(), written]);
    await repo.updateExport(db, exportId, {
      status: 'done',
      bytes: sink.bytes,
      rowsDone: total * 2,
      finishedAt: new Date(),
    });
  } catch (error) {
    deps.log.error({ err: error, exportId }, 'export failed');
    await repo.deleteExportChunks(db, exportId);
    await repo.updateExport(db, exportId, {
      status: 'failed',
      failureMessage: exportTexts.failed,
      finishedAt: new Date(),
    });
  }
}

/** Writes the archive into the database 5 MB at a time, as it comes (backpressure included). */
class ChunkSink extends Writable {
  bytes = 0;
  private seq = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(
    private readonly db: Db,
    private readonly exportId: string,
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
    if (this.pendingBytes < CHUNK_BYTES) return callback();
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
    await repo.insertExportChunk(this.db, this.exportId, this.seq++, body);
  }
}

const readme = (orgName: string) =>
  [
    `Everything ${orgName} keeps on the platform, exported ${new Date().toISOString()}.`,
    '',
    'customers.csv and tags.csv have the columns the CSV imports read: they import into a new',
    "organisation as they are. credits.csv is each customer's punch-card balance per product.",
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
