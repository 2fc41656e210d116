import { ApiError, NetworkError } from './api.ts';

/** What a refused or failed request says: the server's own message when it gave one. */
export function failureText(error: unknown, what: string): string {
  if (error instanceof NetworkError) return `You are offline. ${what} needs a connection.`;
  if (error instanceof ApiError && error.status < 500) return error.message;
  return `${what} did not work. Please try again.`;
}

/** The field errors of a 400 answer ({field, message} list), if any. */
export function fieldErrorsOf(error: unknown): Array<{ field: string; message: string }> {
  if (!(error instanceof ApiError) || error.status !== 400) return [];
  const body = error.body as { errors?: unknown } | null;
  return Array.isArray(body?.errors)
    ? (body.errors as Array<{ field: string; message: string }>)
    : [];
}
