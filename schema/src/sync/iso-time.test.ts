import { describe, expect, it } from 'vitest';
import { isoTimeSchema, TIME_RANGE, timeOutOfRangeMessage } from './iso-time.ts';

const messagesOf = (value: unknown) => {
  const result = isoTimeSchema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe('the shared time range of documents and API bodies', () => {
  it('accepts its first and last millisecond', () => {
    expect(messagesOf(TIME_RANGE.from)).toEqual([]);
    expect(messagesOf('2199-12-31T23:59:59.999Z')).toEqual([]);
    // A device whose clock was reset to the epoch still syncs.
    expect(messagesOf('1970-01-01T00:00:00.000Z')).toEqual([]);
  });

  it('refuses the years PostgreSQL stores but Node misreads, and everything else outside', () => {
    for (const value of [
      '0000-01-01T00:00:00.000Z',
      '0001-01-01T00:00:00.000Z',
      '0025-11-20T09:00:00.000Z',
      '0099-12-31T23:59:59.999Z',
      '1850-06-01T00:00:00.000Z',
      '1899-12-31T23:59:59.999Z',
      TIME_RANGE.until,
      '9999-12-31T23:59:59.999Z',
    ])
      expect(messagesOf(value), value).toEqual([timeOutOfRangeMessage]);
  });

  it('says only that the format is wrong when it is', () => {
    expect(messagesOf('20 November 0025')).toEqual(['Invalid ISO datetime']);
  });
});
