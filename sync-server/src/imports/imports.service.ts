import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { decodeCsvBytes, readCsv } from '@platform/schema/imports/csv';
import { mayImport } from '@platform/schema/imports/import-access';
import {
  checkImport,
  type AssignmentRow,
  type ContactListRow,
  type CreditRow,
  type CustomerRow,
  type ImportKind,
  type RowError,
  type TagRow,
} from '@platform/schema/imports/import-rules';
import {
  IMPORT_CHUNK_BYTES,
  MAX_KEPT_ROW_ERRORS,
  importTexts,
  type CreateImportRequest,
  type ImportStatus,
} from '@platform/schema/imports/import.zod';
import { importKinds } from '@platform/schema/imports/import-rules';
import { dayKeyOf } from '@platform/schema/time-tracking/org-calendar';
import type { Database, Db, Tx } from '../db/open-database.ts';
import { rowsOf } from '../db/open-database.ts';
import { organizationRegion } from '../organizations/organizations.service.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import {
  Conflict,
  Forbidden,
  NotFound,
  RowsRefused,
  ValidationFailed,
} from '../plugins/domain-errors.ts';
import { requireSession } from '../plugins/session.ts';
import {
  importableCustomerEmails,
  importCustomerBatch,
  importTagBatch,
  refuseAmbiguousEmails,
} from '../crm/roster-import.service.ts';
import { addMembersByEmail, contactListsByName } from '../crm/contact-lists.service.ts';
import { importableProducts, importCreditBatch } from '../payments/credits-import.service.ts';
import {
  importAssignmentBatch,
  type AssignmentPayments,
} from '../payments/assignments-import.service.ts';
import * as repo from './imports.repository.ts';

/**
 * CSV imports (issue 17, decision 0071). The file arrives in chunks and is kept until a job in
 * the queue reads it; the job checks every row with the rules the preview ran (schema/imports)
 * and, only when none is bad, writes the whole import in one transaction — a failure anywhere
 * leaves the database as it was. The import's row is its record and its progress, which the
 * screen reads (also after a reload).
 */

/** Staff of one organisation, with what they may import. */
export type Importer = { orgId: string; userId: string; claims: readonly string[] };

/** Uploads one person may have open at once, and how long one waits for its next chunk. */
const MAX_OPEN_UPLOADS = 3;
const ABANDONED_MS = 60 * 60 * 1000;

/** Rows written per statement; between batches the progress is told (PostgreSQL). */
const BATCH_ROWS = 5000;

export async function requireImporter(request: FastifyRequest): Promise<Importer> {
  const { session, user, claims } = await requireSession(request);
  if (session.view !== 'org' || !session.orgId) throw new Forbidden(importTexts.notAllowed);
  const importer = { orgId: session.orgId, userId: user.id, claims };
  if (!importKinds.some((kind) => mayImport(claims, kind)))
    throw new Forbidden(importTexts.notAllowed);
  return importer;
}

function requireKind(importer: Importer, kind: ImportKind) {
  if (!mayImport(importer.claims, kind)) throw new Forbidden(importTexts.notAllowed);
}

/** An import this person may see: their organisation's, of a kind they may import. */
async function visibleImport(db: Db | Tx, importer: Importer, id: string) {
  const row = await repo.findImport(db, importer.orgId, id);
  if (!row || !mayImport(importer.claims, row.kind)) throw new NotFound(importTexts.notFound);
  return row;
}

export async function createImport(
  database: Pick<Database, 'db' | 'kind'>,
  importer: Importer,
  input: CreateImportRequest,
): Promise<{ id: string; chunkBytes: number }> {
  requireKind(importer, input.kind);
  // Each open upload may hold up to 100 MB until it runs: a person sends a few at a time, and
  // one left an hour without a chunk is abandoned (the prune removes it).
  const open = await repo.openUploadsOf(database.db, importer, new Date(Date.now() - ABANDONED_MS));
  if (open >= MAX_OPEN_UPLOADS) throw new Conflict(importTexts.tooManyOpen);
  const row = await repo.insertImport(database.db, {
    orgId: importer.orgId,
    kind: input.kind,
    fileName: input.fileName,
    totalBytes: input.totalBytes,
    createdByUserId: importer.userId,
  });
  return { id: row.id, chunkBytes: chunkBytesFor(database.kind) };
}

/**
 * spec §9: 10 MB chunks to a server that keeps them on its own disk (the embedded database),
 * 5 MB to one whose database is across a network.
 */
export const chunkBytesFor = (kind: Database['kind']) =>
  kind === 'pglite' ? IMPORT_CHUNK_BYTES.local : IMPORT_CHUNK_BYTES.remote;

/** One chunk of the file, in order (the same chunk again replaces itself: a lost answer). */
export async function receiveChunk(
  db: Db,
  importer: Importer,
  id: string,
  seq: number,
  body: Buffer,
): Promise<{ receivedBytes: number }> {
  await visibleImport(db, importer, id);
  return db.transaction(async (tx) => {
    const row = await repo.lockImport(tx, id);
    if (!row || row.status !== 'uploading') throw new Conflict(importTexts.notUploading);
    const before = await repo.chunkCount(tx, id);
    if (seq > before.count) throw new Conflict(importTexts.chunkOutOfOrder);
    await repo.putChunk(tx, id, seq, body);
    const { bytes } = await repo.chunkCount(tx, id);
    if (bytes > row.totalBytes) throw new ValidationFailed(importTexts.tooLarge);
    await repo.updateImport(tx, id, { receivedBytes: bytes });
    return { receivedBytes: bytes };
  });
}

/** Every byte arrived: the job is asked, in the same transaction. */
export async function startImport(
  db: Db,
  jobs: Pick<JobQueue, 'enqueue'>,
  importer: Importer,
  id: string,
): Promise<ImportStatus> {
  await visibleImport(db, importer, id);
  await db.transaction(async (tx) => {
    const row = await repo.lockImport(tx, id);
    if (!row || row.status !== 'uploading') throw new Conflict(importTexts.notUploading);
    if (row.receivedBytes !== row.totalBytes) throw new Conflict(importTexts.incomplete);
    await repo.updateImport(tx, id, { status: 'queued' });
    await jobs.enqueue('csv-import', { importId: id }, { tx });
  });
  return importStatus(db, importer, id);
}

export async function importStatus(db: Db, importer: Importer, id: string) {
  return toStatus(await visibleImport(db, importer, id));
}

export async function listImports(db: Db, importer: Importer) {
  const kinds = importKinds.filter((kind) => mayImport(importer.claims, kind));
  // The list says how each ended; the bad rows are read on the import itself.
  return {
    imports: (await repo.latestImports(db, importer.orgId, kinds)).map((row) => ({
      ...toStatus(row),
      rowErrors: [],
    })),
  };
}

function toStatus(row: repo.ImportRow): ImportStatus {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    fileName: row.fileName,
    totalBytes: row.totalBytes,
    receivedBytes: row.receivedBytes,
    rowsTotal: row.rowsTotal,
    rowsDone: row.rowsDone,
    rowErrors: row.rowErrors,
    result: row.result,
    failureMessage: row.failureMessage,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

type RunDeps = {
  database: Pick<Database, 'db' | 'kind'>;
  log: Pick<FastifyBaseLogger, 'error'>;
  /**
   * How invitations are emailed and card subscriptions started (product assignments); null
   * where payments are not set up.
   */
  payments?: AssignmentPayments;
};

/**
 * The job: read the file, check every row, and write all of them or none. Run twice (a retry
 * after a crash), the second run finds the import done, or finds nothing written and starts over.
 */
export async function runImport(deps: RunDeps, importId: string): Promise<void> {
  const { db } = deps.database;
  const row = await db.transaction(async (tx) => {
    const found = await repo.lockImport(tx, importId);
    if (!found || (found.status !== 'queued' && found.status !== 'running')) return null;
    await repo.updateImport(tx, importId, { status: 'running', rowsDone: 0 });
    return found;
  });
  if (!row) return;
  const refuse = async (values: {
    failureMessage?: string;
    rowErrors?: RowError[];
    rowsTotal?: number;
  }) => {
    await settle(db, importId, {
      status: 'refused',
      failureMessage: values.failureMessage ?? null,
      rowErrors: keptErrors(values.rowErrors ?? []),
      ...(values.rowsTotal !== undefined ? { rowsTotal: values.rowsTotal } : {}),
      finishedAt: new Date(),
    });
  };
  try {
    const region = await organizationRegion(db, row.orgId);
    const bytes = Buffer.concat(await repo.chunksOf(db, importId));
    // Fewer bytes than started with: the chunks went (a run before this one ended it).
    if (bytes.length !== row.totalBytes) throw new Error('the import file is not whole');
    const decoded = decodeCsvBytes(bytes);
    if (!decoded.ok) return await refuse({ failureMessage: decoded.message });
    const read = readCsv(decoded.text);
    if (!read.ok) return await refuse({ failureMessage: read.message });
    const checked = checkImport(row.kind, read.records, {
      customerEmails: await importableCustomerEmails(db, row.orgId),
      products:
        row.kind === 'credits' || row.kind === 'assignments'
          ? await importableProducts(db, row.orgId)
          : new Map(),
      contactLists:
        row.kind === 'contact-lists' ? await contactListsByName(db, row.orgId) : new Map(),
      today: dayKeyOf(Date.now(), region.timeZone),
      country: region.country,
    });
    const rowsTotal = checked.rows.length + checked.errors.length;
    if (checked.errors.length > 0) return await refuse({ rowErrors: checked.errors, rowsTotal });
    await repo.updateImport(db, importId, { rowsTotal });
    // In the order of their addresses: two imports naming the same new people (in two
    // organisations, each under its own lock) take the account rows' locks in one order and
    // never deadlock each other.
    if (row.kind === 'customers')
      (checked.rows as Array<{ email: string }>).sort((a, b) =>
        a.email < b.email ? -1 : a.email > b.email ? 1 : 0,
      );
    const cellsOf = new Map(read.records.map((record) => [record.row, record.cells]));
    // One import of an organisation writes at a time (two files naming one new address), and a
    // second run of this one waits, then finds it done. Not a lock on the import's row: the
    // progress is written to it from outside the write's transaction. The wait is outside any
    // transaction (try, and try again): waiters holding pooled connections while the writer
    // needs one for its progress left the pool deadlocked (a full run, 2026-11-28).
    const lockKey = `import:${row.orgId}`;
    for (;;) {
      const wrote = await db.transaction(async (tx) => {
        const [lock] = rowsOf<{ locked: boolean }>(
          await tx.execute(
            sql`select pg_try_advisory_xact_lock(hashtextextended(${lockKey}, 0)) as locked`,
          ),
        );
        if (!lock?.locked) return false;
        const current = await repo.findImport(tx, row.orgId, importId);
        if (current?.status !== 'running') return true;
        const result: Record<string, number> = { rows: checked.rows.length };
        for (let start = 0; start < checked.rows.length; start += BATCH_ROWS) {
          const batch = checked.rows.slice(start, start + BATCH_ROWS);
          const counts = await writeBatch(
            tx,
            {
              kind: row.kind,
              orgId: row.orgId,
              staffUserId: row.createdByUserId,
              payments: deps.payments ?? null,
            },
            batch.map((r) => ({ ...r, cells: cellsOf.get(r.row) ?? [] })),
          );
          for (const [key, value] of Object.entries(counts))
            result[key] = (result[key] ?? 0) + value;
          // Progress is told from outside the transaction — on PostgreSQL, where another
          // connection can; the embedded database has one, which this transaction holds.
          if (deps.database.kind === 'postgres')
            await repo.updateImport(db, importId, { rowsDone: start + batch.length });
        }
        await repo.updateImport(tx, importId, {
          status: 'done',
          rowsDone: checked.rows.length,
          result,
          finishedAt: new Date(),
        });
        await repo.deleteChunks(tx, importId);
        return true;
      });
      if (wrote) break;
      await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
    }
  } catch (error) {
    if (error instanceof RowsRefused) return await refuse({ rowErrors: error.rowErrors });
    deps.log.error({ err: error, importId }, 'import failed; nothing was written');
    await failImport(db, importId);
  }
}

/** How often an import waiting for the organisation's other import tries again. */
const LOCK_RETRY_MS = 200;

type CheckedRow = { row: number; cells: string[] };

/** One batch of checked rows written by the feature that owns what they change. */
function writeBatch(
  tx: Tx,
  context: {
    kind: ImportKind;
    orgId: string;
    staffUserId: string | null;
    payments: AssignmentPayments;
  },
  batch: ReadonlyArray<CheckedRow>,
): Promise<Record<string, number>> {
  const writer = { orgId: context.orgId, staffUserId: context.staffUserId };
  switch (context.kind) {
    case 'customers':
      return importCustomerBatch(tx, writer, batch as unknown as CustomerRow[]);
    case 'tags':
      return importTagBatch(tx, context.orgId, batch as unknown as Array<TagRow & CheckedRow>);
    case 'credits':
      return importCreditBatch(tx, writer, batch as unknown as Array<CreditRow & CheckedRow>);
    case 'contact-lists':
      return importContactListBatch(
        tx,
        writer,
        batch as unknown as Array<ContactListRow & CheckedRow>,
      );
    case 'assignments':
      return importAssignmentBatch(
        tx,
        { ...writer, payments: context.payments },
        batch as unknown as Array<AssignmentRow & CheckedRow>,
      );
  }
}

/** Customers put on contact lists (never taken off): the same file twice adds nothing. */
async function importContactListBatch(
  tx: Tx,
  writer: { orgId: string; staffUserId: string | null },
  rows: ReadonlyArray<ContactListRow & CheckedRow>,
): Promise<Record<string, number>> {
  await refuseAmbiguousEmails(tx, writer.orgId, rows);
  return addMembersByEmail(tx, writer.orgId, writer.staffUserId, rows);
}

/** The import ended without writing anything: said so, and its file is let go. */
export async function failImport(db: Db, importId: string): Promise<void> {
  await settle(db, importId, {
    status: 'failed',
    failureMessage: importTexts.failed,
    rowsDone: 0,
    finishedAt: new Date(),
  });
}

/**
 * The job failed for good (its retries used up): an import it left queued or running is failed,
 * never left "importing" for ever.
 */
export const abandonImport = failImport;

/**
 * How an import ended, written only while it is still queued or running — a second run (a
 * retry after a lost lease) that fails after the first one finished never undoes "done" — and
 * its file let go, in the same transaction.
 */
async function settle(db: Db, importId: string, values: Parameters<typeof repo.updateImport>[2]) {
  await db.transaction(async (tx) => {
    const row = await repo.lockImport(tx, importId);
    if (!row || (row.status !== 'queued' && row.status !== 'running')) return;
    await repo.updateImport(tx, importId, values);
    await repo.deleteChunks(tx, importId);
  });
}

/** The bad rows kept on the record: at most 1,000, each cut to what a screen shows. */
function keptErrors(errors: RowError[]): RowError[] {
  return errors.slice(0, MAX_KEPT_ROW_ERRORS).map((error) => ({
    row: error.row,
    message: error.message.slice(0, 300),
    cells: error.cells
      .slice(0, 12)
      .map((cell) => (cell.length > 100 ? `${cell.slice(0, 100)}…` : cell)),
  }));
}

/** The prune job's part: chunks no job will read (an import ended, an upload left an hour). */
export const pruneImportChunks = (db: Db, now: number) =>
  repo.dropUnreadChunks(db, new Date(now - ABANDONED_MS));
