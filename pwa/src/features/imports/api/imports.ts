import {
  createImportResponseSchema,
  importChunkResponseSchema,
  importListSchema,
  importStatusSchema,
  type CreateImportRequest,
  type ImportStatus,
} from '@platform/schema/imports/import.zod';
import { answerOf, api } from '../../../lib/api.ts';

/** POST /api/imports: a new import waiting for its file; answers the chunk size to send. */
export function createImport(input: CreateImportRequest) {
  return api('/api/imports', { json: input, schema: createImportResponseSchema });
}

/** PUT /api/imports/{id}/chunks/{seq}: one part of the file, as bytes. */
export function putImportChunk(id: string, seq: number, bytes: Uint8Array, signal?: AbortSignal) {
  return answerOf(
    fetch(`/api/imports/${encodeURIComponent(id)}/chunks/${seq}`, {
      method: 'PUT',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/octet-stream', accept: 'application/json' },
      body: bytes as BufferSource,
      signal: signal ?? null,
    }),
    importChunkResponseSchema,
  );
}

/** POST /api/imports/{id}/start: the whole file arrived; the import runs in the background. */
export function startImport(id: string): Promise<ImportStatus> {
  return api(`/api/imports/${encodeURIComponent(id)}/start`, {
    method: 'POST',
    json: {},
    schema: importStatusSchema,
  });
}

export function getImport(id: string, signal?: AbortSignal): Promise<ImportStatus> {
  return api(`/api/imports/${encodeURIComponent(id)}`, {
    schema: importStatusSchema,
    ...(signal ? { signal } : {}),
  });
}

/** GET /api/imports: the organisation's latest imports (the page finds a running one again). */
export function listImports(signal?: AbortSignal) {
  return api('/api/imports', { schema: importListSchema, ...(signal ? { signal } : {}) });
}
