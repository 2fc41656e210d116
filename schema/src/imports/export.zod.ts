import { z } from 'zod';

/**
 * The organisation's export (issue 17, decision 0072) and a customer's own data:
 *   POST /api/exports                 → status (queued; a job builds the archive)
 *   GET  /api/exports                 → the latest five, with progress
 *   GET  /api/exports/:id             → status
 *   GET  /api/exports/:id/download    → the zip (until it expires)
 *   GET  /api/me/data-export          → a customer's own data, as JSON
 */

/** spec: an export is downloadable for 7 days. */
export const EXPORT_DAYS = 7;

export const exportStatusSchema = z.object({
  id: z.uuid(),
  status: z.enum(['queued', 'running', 'done', 'failed']),
  rowsTotal: z.number().int().nullable(),
  rowsDone: z.number().int(),
  bytes: z.number().int(),
  failureMessage: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  expiresAt: z.string(),
  /** Whether the archive can still be downloaded (done and not expired). */
  downloadable: z.boolean(),
});
export type ExportStatus = z.infer<typeof exportStatusSchema>;

export const exportListSchema = z.object({ exports: z.array(exportStatusSchema) });
export const exportIdParamsSchema = z.object({ id: z.uuid() });

export const exportTexts = {
  notAllowed: 'You are not allowed to export this organisation’s data.',
  notFound: 'This export was not found.',
  notReady: 'This export is not ready to download.',
  expired: 'This export has expired. Make a new one.',
  failed: 'The export stopped. Try again; if it happens again, contact us.',
  busy: 'An export is being made already; it will be ready here shortly.',
} as const;
