import { describe, expect, it } from 'vitest';
import {
  formatBreaks,
  formatClockTime,
  formatDay,
  formatDuration,
  formatTimer,
} from './time-display.ts';

const spaced = (text: string) => text.replace(/\s/g, ' ');

describe('time display', () => {
  it('shows times in the organisation’s zone and way, across a daylight-saving change', () => {
    // Europe/Amsterdam moved from UTC+1 to UTC+2 at 01:00 UTC on 2026-03-29.
    expect(formatClockTime('2026-03-29T00:30:00.000Z', 'Europe/Amsterdam')).toBe('01:30');
    expect(formatClockTime('2026-03-29T01:30:00.000Z', 'Europe/Amsterdam')).toBe('03:30');
    expect(spaced(formatClockTime('2026-11-23T13:02:00.000Z', 'America/New_York'))).toBe('8:02 AM');
    expect(formatDay('2026-11-23', 'Europe/London')).toBe('Monday 23 November');
  });

  it('writes breaks with the same clock', () => {
    const entry = {
      startTime: '2026-11-23T14:00:00.000Z',
      endTime: null,
      breakIntervals: [
        { startTime: '2026-11-23T17:00:00.000Z', endTime: '2026-11-23T17:30:00.000Z' },
        { startTime: '2026-11-23T20:00:00.000Z', endTime: null },
      ],
    };
    expect(spaced(formatBreaks(entry, 'America/New_York'))).toBe('12:00 PM–12:30 PM, 3:00 PM–now');
    expect(formatBreaks({ ...entry, breakIntervals: [] }, 'America/New_York')).toBe('None');
  });

  it('shows durations in hours and minutes, never negative', () => {
    expect(formatDuration(3 * 3_600_000 + 5 * 60_000 + 59_999)).toBe('3h 05m');
    expect(formatDuration(-1)).toBe('0h 00m');
    expect(formatTimer(2 * 3_600_000 + 5 * 60_000 + 9_000)).toBe('2:05:09');
  });
});
