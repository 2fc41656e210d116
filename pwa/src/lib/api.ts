import type { z } from 'zod';

/** An answer that was not ok; `body` is the parsed JSON (or text) the server sent. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(typeof body === 'object' && body && 'message' in body ? String((body as { message: unknown }).message) : `HTTP ${status}`);
  }
}
/** The request never reached the server (offline, DNS, refused). */
export class NetworkError extends Error {}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  if ((response.headers.get('content-type') ?? '').includes('application/json')) return JSON.parse(text) as unknown;
  return text;
}

/** fetch with cookies, JSON in and out, typed errors. Pass a zod schema to validate the answer. */
export function api<T = unknown>(
  path: string,
  options: { method?: string; json?: unknown; schema?: z.ZodType<T>; signal?: AbortSignal } = {},
): Promise<T> {
  const sent = fetch(path, {
    method: options.method ?? (options.json === undefined ? 'GET' : 'POST'),
    credentials: 'same-origin',
    headers: options.json === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json', accept: 'application/json' },
    body: options.json === undefined ? null : JSON.stringify(options.json),
    signal: options.signal ?? null,
  });
  return answerOf(sent, options.schema);
}

/** Reads a request's answer as `api` does: typed errors, JSON, the optional schema. */
export async function answerOf<T = unknown>(sent: Promise<Response>, schema?: z.ZodType<T>): Promise<T> {
  let response: Response;
  try {
    response = await sent;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new NetworkError('You appear to be offline.');
  }
  const body = await readBody(response);
  if (!response.ok) throw new ApiError(response.status, body);
  return schema ? schema.parse(body) : (body as T);
}
