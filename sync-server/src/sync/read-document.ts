import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { CollectionName } from '@platform/schema/sync/collections';
import { withDeleted } from '@platform/schema/sync/sync.zod';
import type { AnyReplicatedCollection, WireDoc } from './collection-definition.ts';

type Doc = WireDoc<{ id: string; orgId: string; updatedAt: string }>;

/** What a pull or a push says of a stored row it could not turn into a document. */
export type UnreadableRow = { collection: CollectionName; id: string; reason: string };
export type ReportUnreadable = (row: UnreadableRow) => void;

/** How a collection's stored rows become documents (the pull's, the push's, the REST reads'). */
export type DocumentReading = Pick<AnyReplicatedCollection, 'name' | 'toDoc' | 'docSchema'>;

/** The log line of a skipped row: stable, so operators can search and alert on it. */
export const unreadableRowLogMessage = 'sync: skipped a stored row that cannot be a document';

/** A push that names such a row is refused with this (the row is not overwritten blindly). */
export const unreadableStoredDocumentMessage =
  'The stored copy of this document cannot be read; it cannot be changed by syncing.';

const wireSchemas = new WeakMap<DocumentReading, z.ZodType>();

/** The collection's document schema plus the tombstone flag, made once per collection. */
export function wireSchemaOf(collection: DocumentReading): z.ZodType {
  let schema = wireSchemas.get(collection);
  if (!schema) {
    schema = withDeleted(collection.docSchema as z.ZodObject);
    wireSchemas.set(collection, schema);
  }
  return schema;
}

/**
 * A stored row as the document devices receive, or why it cannot be one: its mapping threw (a
 * time that is no instant, such as `infinity`) or the result breaks the shared schema (a time
 * outside TIME_RANGE written before the range existed, or around it with SQL). Such a row is
 * the server's to report and skip; handing it out would stop the devices' feeds instead.
 */
export function readDocument(
  collection: DocumentReading,
  row: unknown,
): { doc: Doc } | { reason: string } {
  let doc: Doc;
  try {
    doc = collection.toDoc(row) as Doc;
  } catch (error) {
    return { reason: error instanceof Error ? error.message : String(error) };
  }
  const result = wireSchemaOf(collection).safeParse(doc);
  return result.success ? { doc } : { reason: describeIssues(result.error) };
}

/** `field: message; …`, the form push refusals and skip reports give a schema's complaints. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.join('.') || 'document'}: ${issue.message}`)
    .join('; ');
}

/** The rows that can be documents, as documents, in order; each other one reported and passed. */
export function readDocuments<D>(
  collection: DocumentReading,
  rows: ReadonlyArray<{ id: string }>,
  report: ReportUnreadable,
): D[] {
  return rows.flatMap((row) => {
    const read = readDocument(collection, row);
    if ('doc' in read) return [read.doc as D];
    report({ collection: collection.name, id: row.id, reason: read.reason });
    return [];
  });
}

/**
 * The report of a request that met such rows: logged with the request (its id, who asked) and
 * counted on GET /metrics (`sync_unreadable_rows_total`), never answered with a 500.
 */
export const reportUnreadableTo =
  (app: FastifyInstance, request: FastifyRequest): ReportUnreadable =>
  (row) => {
    request.log.warn({ unreadableRow: row }, unreadableRowLogMessage);
    app.metrics.add('sync_unreadable_rows_total', { collection: row.collection });
  };
