import { describe, expect, it } from 'vitest';
import { formatClockTime, formatDuration, formatTimer } from './time-display.ts';

describe('time display', () => {
  it('shows times in the organisation’s zone, across a daylight-saving change', () => {
    // Europe/Amsterdam moved from UTC+1 to UTC+2 at 01:00 UTC on 2026-03-29.
    expect(formatClockTime('2026-03-29T00:30:00.000Z', 'Europe/Amsterdam')).toBe('01:30');
    expect(formatClockTime('2026-03-29T01:30:00.000Z', 'Europe/Amsterdam')).toBe('03:30');
    expect(formatClockTime('2026-11-23T13:02:00.000Z', 'America/New_York')).toBe('08:02');
  });

  it('shows durations in hours and minutes, never negative', () => {
    expect(formatDuration(3 * 3_600_000 + 5 * 60_000 + 59_999)).toBe('3h 05m');
    expect(formatDuration(-1)).toBe('0h 00m');
    expect(formatTimer(2 * 3_600_000 + 5 * 60_000 + 9_000)).toBe('2:05:09');
  });
});
