import { exportListSchema, exportStatusSchema } from '@platform/schema/imports/export.zod';
import { api } from '../../../lib/api.ts';

/** POST /api/exports: 'Export all data' — a job builds the archive. */
export function createExport() {
  return api('/api/exports', { method: 'POST', json: {}, schema: exportStatusSchema });
}

/** GET /api/exports: the organisation's latest exports, with their progress. */
export function listExports(signal?: AbortSignal) {
  return api('/api/exports', { schema: exportListSchema, ...(signal ? { signal } : {}) });
}

export const exportDownloadPath = (id: string) => `/api/exports/${encodeURIComponent(id)}/download`;

/** A person's own data, as a JSON file. */
export const myDataPath = '/api/me/data-export';
