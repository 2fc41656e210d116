import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPgTimestamp, parsePgTimestamp } from './instant-column.ts';

const ms = (text: string) => parsePgTimestamp(text).getTime();

describe("PostgreSQL's timestamptz text", () => {
  it('reads years 0–99 as those years, not as 19xx or 20xx', () => {
    expect(ms('0001-01-01 00:00:00+00')).toBe(Date.parse('0001-01-01T00:00:00.000Z'));
    expect(ms('0012-12-31 00:00:00+00')).toBe(Date.parse('0012-12-31T00:00:00.000Z'));
    expect(ms('0025-11-20 09:00:00.5+00')).toBe(Date.parse('0025-11-20T09:00:00.500Z'));
  });

  it('reads offsets with seconds, BC, long years and the JSON form', () => {
    expect(ms('1850-01-01 04:03:58-04:56:02')).toBe(Date.parse('1850-01-01T09:00:00.000Z'));
    expect(ms('1950-01-01 08:15:30-00:44:30')).toBe(Date.parse('1950-01-01T09:00:00.000Z'));
    expect(ms('2026-11-23 14:30:00.123456+05:30')).toBe(Date.parse('2026-11-23T09:00:00.123Z'));
    expect(ms('0001-12-31 00:00:00+00 BC')).toBe(Date.parse('0000-12-31T00:00:00.000Z'));
    expect(ms('12345-06-07 00:00:00+00')).toBe(Date.parse('+012345-06-07T00:00:00.000Z'));
    expect(ms('0001-12-31T00:00:00+00:00 BC')).toBe(Date.parse('0000-12-31T00:00:00.000Z'));
  });

  it('gives an Invalid Date, never an exception or a wrong instant, for what is no instant', () => {
    for (const text of [
      'infinity',
      '-infinity',
      '',
      '20/11/0025 09:00:00.000 UTC',
      '300000-01-01 00:00:00+00',
    ])
      expect(ms(text), text).toBeNaN();
  });

  it('writes every Date so that it reads back as the same instant', () => {
    fc.assert(
      fc.property(fc.date({ noInvalidDate: true }), (date) => {
        expect(parsePgTimestamp(formatPgTimestamp(date)).getTime()).toBe(date.getTime());
      }),
    );
    expect(formatPgTimestamp(new Date('0000-06-15T12:00:00.000Z'))).toBe(
      '0001-06-15 12:00:00.000+00 BC',
    );
    expect(() => formatPgTimestamp(new Date(Number.NaN))).toThrow(RangeError);
  });
});
