import { ApiError, NetworkError } from './api.ts';

/** How many times a query asks again after a failure (TanStack Query's `retry`). */
const RETRIES = 2;

/**
 * A query's retry rule when the device cannot reach the server: no retry — the screen says it
 * is offline (or turns to the device's replica) at once; TanStack Query asks again on reconnect.
 */
export const retryUnlessOffline = (count: number, error: Error): boolean =>
  !(error instanceof NetworkError) && count < RETRIES;

/** The same, and no retry of a request the server refused (4xx): asking again changes nothing. */
export const retryServerFaults = (count: number, error: Error): boolean =>
  !(error instanceof ApiError && error.status < 500) && retryUnlessOffline(count, error);
