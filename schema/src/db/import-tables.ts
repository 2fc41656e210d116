import {
  bigint,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { organizations, users } from './tables.ts';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * A CSV import (issue 17, decision 0071): the file arrives in chunks, a job in the queue checks
 * every row with the rules the preview ran and writes all of it in one transaction — or nothing.
 * The row stays as the import's record (who, when, what came of it); its chunks go once read.
 */
export const importJobs = pgTable(
  'import_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    kind: text('kind', {
      enum: ['customers', 'assignments', 'credits', 'tags', 'contact-lists'],
    }).notNull(),
    /**
     * uploading → queued (every byte arrived, the job asked) → running → done; or refused (the
     * server's check found bad rows: nothing written) or failed (an error while writing: rolled
     * back, nothing written).
     */
    status: text('status', {
      enum: ['uploading', 'queued', 'running', 'done', 'refused', 'failed'],
    }).notNull(),
    fileName: text('file_name').notNull(),
    totalBytes: integer('total_bytes').notNull(),
    receivedBytes: integer('received_bytes').notNull().default(0),
    rowsTotal: integer('rows_total'),
    rowsDone: integer('rows_done').notNull().default(0),
    /** The bad rows the server's check found (the first 1,000), as the preview lists them. */
    rowErrors: jsonb('row_errors')
      .$type<Array<{ row: number; message: string; cells: string[] }>>()
      .notNull()
      .default([]),
    /** What the import did, per outcome (created, invited, unchanged, …). */
    result: jsonb('result').$type<Record<string, number>>(),
    failureMessage: text('failure_message'),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('import_jobs_org_created').on(t.orgId, t.createdAt)],
);

/** The file's bytes as they arrived, in order; removed once the job has read them. */
export const importChunks = pgTable(
  'import_chunks',
  {
    importId: uuid('import_id')
      .notNull()
      .references(() => importJobs.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    body: bytea('body').notNull(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.seq] })],
);

/**
 * An organisation's export (issue 17, decision 0072): one zip of CSV files (in the shapes the
 * imports read) and a JSON file of everything, built by a job in the queue straight into its
 * chunks — never whole in memory — and downloadable until it expires (7 days).
 */
export const exportJobs = pgTable(
  'export_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** queued → running → done, or failed (what was written is removed). */
    status: text('status', { enum: ['queued', 'running', 'done', 'failed'] }).notNull(),
    rowsTotal: integer('rows_total'),
    rowsDone: integer('rows_done').notNull().default(0),
    /** Archives can pass 2 GB: a bigint, read as a JS number (exact to 8 PB). */
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    failureMessage: text('failure_message'),
    /**
     * The run that owns the export and its chunks: a run that starts (a retry after a lost lease)
     * takes it over, and an older run's writes — chunks, done, failed — then match nothing.
     */
    runId: uuid('run_id'),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('export_jobs_org_created').on(t.orgId, t.createdAt),
    index('export_jobs_expires').on(t.expiresAt),
  ],
);

/** The archive's bytes, in order. */
export const exportChunks = pgTable(
  'export_chunks',
  {
    exportId: uuid('export_id')
      .notNull()
      .references(() => exportJobs.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    body: bytea('body').notNull(),
  },
  (t) => [primaryKey({ columns: [t.exportId, t.seq] })],
);
export const importTables = { importJobs, importChunks, exportJobs, exportChunks };
