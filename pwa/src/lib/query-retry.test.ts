import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from './api.ts';
import { retryServerFaults, retryUnlessOffline } from './query-retry.ts';

describe('query retry rules', () => {
  it('asks twice more after a server fault, never when the server cannot be reached', () => {
    const fault = new ApiError(503, null);
    expect([0, 1, 2].map((count) => retryUnlessOffline(count, fault))).toEqual([true, true, false]);
    expect(retryUnlessOffline(0, new NetworkError('offline'))).toBe(false);
    expect(retryServerFaults(0, fault)).toBe(true);
    expect(retryServerFaults(0, new NetworkError('offline'))).toBe(false);
  });

  it('does not ask again for a request the server refused, when told so', () => {
    expect(retryUnlessOffline(0, new ApiError(404, null))).toBe(true);
    expect(retryServerFaults(0, new ApiError(404, null))).toBe(false);
  });
});
