import { z } from 'zod';
import { csvMessages, isCsvFileName } from './csv.ts';
import { importKinds } from './import-rules.ts';

/**
 * The import calls (issue 17, decision 0071): create an import, send its file in chunks, start
 * it, and read its progress — also after a reload, from the list of the organisation's latest.
 */

/** spec §9: the size of an upload's chunks — 10 MB to a server storing locally, 5 MB remote. */
export const IMPORT_CHUNK_BYTES = { local: 10 * 1024 * 1024, remote: 5 * 1024 * 1024 } as const;
/** The largest file an import takes (a 100,000-customer export is ~8 MB). */
export const MAX_IMPORT_BYTES = 100 * 1024 * 1024;
/** The bad rows an import's record keeps (the preview lists them all before upload). */
export const MAX_KEPT_ROW_ERRORS = 1000;

export const importKindSchema = z.enum(importKinds);

export const createImportRequestSchema = z.object({
  kind: importKindSchema,
  fileName: z
    .string()
    .trim()
    .min(1)
    .max(255)
    .refine(isCsvFileName, { message: csvMessages.notCsv }),
  totalBytes: z.number().int().min(1).max(MAX_IMPORT_BYTES),
});
export type CreateImportRequest = z.infer<typeof createImportRequestSchema>;

export const createImportResponseSchema = z.object({
  id: z.uuid(),
  chunkBytes: z.number().int().positive(),
});

export const importIdParamsSchema = z.object({ id: z.uuid() });
export const importChunkParamsSchema = z.object({
  id: z.uuid(),
  seq: z.coerce.number().int().min(0).max(10_000),
});
export const importChunkResponseSchema = z.object({ receivedBytes: z.number().int() });

export const importStatuses = [
  'uploading',
  'queued',
  'running',
  'done',
  'refused',
  'failed',
] as const;

export const importStatusSchema = z.object({
  id: z.uuid(),
  kind: importKindSchema,
  status: z.enum(importStatuses),
  fileName: z.string(),
  totalBytes: z.number().int(),
  receivedBytes: z.number().int(),
  rowsTotal: z.number().int().nullable(),
  rowsDone: z.number().int(),
  rowErrors: z.array(
    z.object({ row: z.number().int(), message: z.string(), cells: z.array(z.string()) }),
  ),
  result: z.record(z.string(), z.number()).nullable(),
  failureMessage: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ImportStatus = z.infer<typeof importStatusSchema>;

export const importListSchema = z.object({ imports: z.array(importStatusSchema) });

/** Whether an import has finished, one way or another (nothing more will change). */
export const importSettled = (status: ImportStatus['status']) =>
  status === 'done' || status === 'refused' || status === 'failed';

export const importTexts = {
  notFound: 'This import was not found.',
  notAllowed: 'You are not allowed to import this kind of data.',
  notUploading: 'This import is not taking more of its file.',
  chunkOutOfOrder: 'This part of the file arrived out of order. Start the import again.',
  tooLarge: 'This part of the file is larger than the import said its file was.',
  incomplete: 'The file has not fully arrived yet.',
  tooManyOpen:
    'You are sending three files already. Let one of them finish, or start again in an hour.',
  failed: 'The import stopped and nothing was written. Try again; if it happens again, contact us.',
} as const;
