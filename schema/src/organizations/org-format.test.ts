import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orgFormat, formatDuration, formatTimer } from './org-format.ts';
import { countryOfTimeZone, orgRegion } from './org-region.rules.ts';

// Intl separates 'PM' with a narrow no-break space; read every space as one.
const spaced = (text: string) => text.replace(/\s/g, ' ');

describe('the organisation’s region', () => {
  it.each([
    ['America/New_York', 'US'],
    ['US/Eastern', 'US'],
    ['Europe/London', 'GB'],
    ['Europe/Zurich', 'CH'],
    ['Europe/Berlin', 'DE'],
    ['Australia/Sydney', 'AU'],
    ['UTC', 'US'],
    [null, 'US'],
    ['Not/AZone', 'US'],
  ])('%s is in %s', (zone, country) => {
    expect(countryOfTimeZone(zone)).toBe(country);
  });

  it.each([
    ['America/New_York', 'h12'],
    ['Europe/London', 'h23'],
    ['Europe/Berlin', 'h23'],
    ['America/Sao_Paulo', 'h23'],
    ['Australia/Sydney', 'h12'],
  ])('%s reads a %s clock', (zone, cycle) => {
    expect(orgRegion(zone).hourCycle).toBe(cycle);
  });
});

describe('one format for times, days and durations', () => {
  const at = '2026-11-23T20:31:09.000Z';
  it.each([
    ['America/New_York', '3:31 PM', 'Nov 23, 2026, 3:31 PM'],
    ['America/Chicago', '2:31 PM', 'Nov 23, 2026, 2:31 PM'],
    ['Europe/London', '20:31', '23 Nov 2026, 20:31'],
    ['Europe/Berlin', '21:31', '23 Nov 2026, 21:31'],
  ])('in %s a time reads %s', (zone, time, dateTime) => {
    const format = orgFormat(zone);
    expect(spaced(format.time(at))).toBe(time);
    expect(spaced(format.time(Date.parse(at)))).toBe(time);
    expect(spaced(format.dateTime(at))).toBe(dateTime);
  });

  it('follows the zone across a daylight-saving change', () => {
    // Europe/Amsterdam moved from UTC+1 to UTC+2 at 01:00 UTC on 2026-03-29.
    const format = orgFormat('Europe/Amsterdam');
    expect(format.time('2026-03-29T00:30:00.000Z')).toBe('01:30');
    expect(format.time('2026-03-29T01:30:00.000Z')).toBe('03:30');
  });

  it('names days and weeks, and the weekday of a time on another day', () => {
    const us = orgFormat('America/New_York');
    expect(us.day('2026-11-23')).toBe('Monday, November 23');
    expect(spaced(us.dayRange('2026-11-23', '2026-11-29'))).toBe('Nov 23 – 29, 2026');
    expect(us.date('2014-02-03')).toBe('Feb 3, 2014');
    expect(us.shortDay('2026-11-23')).toBe('Mon 23');
    // 02:00 UTC on the 24th is still the 23rd in New York, already the 24th in London.
    expect(us.dateOf('2026-11-24T02:00:00.000Z')).toBe('Nov 23, 2026');
    expect(orgFormat('Europe/London').dateOf('2026-11-24T02:00:00.000Z')).toBe('24 Nov 2026');
    expect(orgFormat('Europe/London').shortDay('2026-11-29')).toBe('Sun 29');
    expect(spaced(us.timeOnDay('2026-11-24T05:00:00.000Z', '2026-11-23'))).toBe('Tue 12:00 AM');
    expect(spaced(us.timeOnDay('2026-11-24T04:59:00.000Z', '2026-11-23'))).toBe('11:59 PM');
  });

  it('writes durations in hours and minutes and the timer with seconds, never negative', () => {
    expect(formatDuration(3 * 3_600_000 + 5 * 60_000 + 59_999)).toBe('3h 05m');
    expect(formatDuration(-1)).toBe('0h 00m');
    expect(formatTimer(2 * 3_600_000 + 5 * 60_000 + 9_000)).toBe('2:05:09');
    expect(orgFormat('Europe/Berlin').duration(60_000)).toBe('0h 01m');
  });

  it('never writes seconds or a zero-padded 12-hour clock, whatever the instant and zone', () => {
    const zones = ['America/New_York', 'Europe/London', 'Asia/Kolkata', 'Australia/Sydney', 'UTC'];
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2199, 11, 31) }),
        fc.constantFrom(...zones),
        (ms, zone) => {
          const format = orgFormat(zone);
          const text = spaced(format.time(ms));
          if (format.region.hourCycle === 'h12')
            expect(text).toMatch(/^([1-9]|1[0-2]):[0-5]\d [ap]\.?m\.?$/i);
          else expect(text).toMatch(/^([01]\d|2[0-3]):[0-5]\d$/);
        },
      ),
    );
  });

  it('reads a duration back to its whole minutes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000 * 3_600_000 }), (ms) => {
        const [, hours, minutes] = /^(\d+)h (\d\d)m$/.exec(formatDuration(ms)) ?? [];
        expect(Number(hours) * 60 + Number(minutes)).toBe(Math.floor(ms / 60_000));
      }),
    );
  });
});
