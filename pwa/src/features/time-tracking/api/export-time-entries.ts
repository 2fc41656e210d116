import type { ExportTimeEntriesQuery } from '@platform/schema/time-tracking/time-tracking.zod';
import { ApiError, NetworkError } from '../../../lib/api.ts';

/**
 * GET /api/time-tracking/export.csv (ours), saved as a file. Fetched rather than followed as a
 * link, so a failure can be told (a toast) instead of replacing the page with an error.
 */
export async function downloadTimeEntriesCsv(query: ExportTimeEntriesQuery): Promise<void> {
  const params = new URLSearchParams({ orgId: query.orgId, from: query.from, to: query.to });
  if (query.userId) params.set('userId', query.userId);
  let response: Response;
  try {
    response = await fetch(`/api/time-tracking/export.csv?${params}`, {
      credentials: 'same-origin',
    });
  } catch {
    throw new NetworkError('You appear to be offline.');
  }
  if (!response.ok) throw new ApiError(response.status, await response.text());
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = name ?? 'time-entries.csv';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the file to the browser; give it a moment before letting go.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
