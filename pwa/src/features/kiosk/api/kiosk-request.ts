import type { z } from 'zod';
import { KIOSK_REQUEST_HEADER } from '@platform/schema/kiosk/kiosk.zod';
import { ApiError, NetworkError } from '../../../lib/api.ts';

/**
 * fetch for the kiosk's own requests (its roster, PIN checks, replication): marked with the
 * kiosk header, so the server reads the kiosk credential and never a session.
 */
export const kioskFetch: typeof fetch = (input, init = {}) => {
  const headers = new Headers(init.headers);
  headers.set(KIOSK_REQUEST_HEADER, '1');
  return fetch(input, { credentials: 'same-origin', ...init, headers });
};

/** JSON in and out through kioskFetch, with the app's typed errors (lib/api.ts). */
export async function kioskRequest<T>(
  path: string,
  options: { json?: unknown; schema: z.ZodType<T> },
): Promise<T> {
  let response: Response;
  try {
    response = await kioskFetch(path, {
      method: options.json === undefined ? 'GET' : 'POST',
      headers:
        options.json === undefined
          ? { accept: 'application/json' }
          : { 'content-type': 'application/json', accept: 'application/json' },
      body: options.json === undefined ? null : JSON.stringify(options.json),
    });
  } catch {
    throw new NetworkError('You appear to be offline.');
  }
  const text = await response.text();
  const body: unknown = text ? JSON.parse(text) : null;
  if (!response.ok) throw new ApiError(response.status, body);
  return options.schema.parse(body);
}
