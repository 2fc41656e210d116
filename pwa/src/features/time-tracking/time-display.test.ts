import { describe, expect, it } from 'vitest';
import { formatClockTime, formatDuration, workedMs } from './time-display.ts';

describe('time display', () => {
  it('shows times in the organisation’s zone, across a daylight-saving change', () => {
    // Europe/Amsterdam moved from UTC+1 to UTC+2 at 01:00 UTC on 2026-03-29.
    expect(formatClockTime('2026-03-29T00:30:00.000Z', 'Europe/Amsterdam')).toBe('01:30');
    expect(formatClockTime('2026-03-29T01:30:00.000Z', 'Europe/Amsterdam')).toBe('03:30');
    expect(formatClockTime('2026-11-23T13:02:00.000Z', 'America/New_York')).toBe('08:02');
  });

  it('subtracts breaks, counts a running entry up to now, and only what falls after a bound', () => {
    const entry = {
      startTime: '2026-11-23T22:00:00.000Z',
      endTime: '2026-11-24T02:00:00.000Z',
      breakIntervals: [{ startTime: '2026-11-23T23:30:00.000Z', endTime: '2026-11-24T00:30:00.000Z' }],
    };
    const now = new Date('2026-11-24T12:00:00.000Z');
    expect(formatDuration(workedMs(entry, now))).toBe('3h 00m');
    // Only what lies after midnight UTC: 00:00–02:00 minus the 30 minutes of break after it.
    expect(formatDuration(workedMs(entry, now, Date.parse('2026-11-24T00:00:00.000Z')))).toBe('1h 30m');
    const running = { startTime: '2026-11-24T09:00:00.000Z', endTime: null, breakIntervals: [] };
    expect(formatDuration(workedMs(running, now))).toBe('3h 00m');
  });
});
