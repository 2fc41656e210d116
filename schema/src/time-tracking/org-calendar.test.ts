import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  instantOfWallTime,
  wallMsOf,
  addDays,
  dayKeyOf,
  dayRange,
  daysBetween,
  instantOfWallInput,
  isDayKey,
  mondayOf,
  orgTimeZone,
  wallInputOf,
  wallTimeOf,
  weekDays,
  weekRange,
} from './org-calendar.ts';

const NY = 'America/New_York';
const iso = (ms: number) => new Date(ms).toISOString();
const hours = (range: { from: number; to: number }) => (range.to - range.from) / 3_600_000;

describe('the organisation’s days', () => {
  it('begin at midnight in the organisation’s zone, not the device’s or UTC', () => {
    expect(dayKeyOf(Date.parse('2026-11-24T04:59:59.999Z'), NY)).toBe('2026-11-23');
    expect(dayKeyOf(Date.parse('2026-11-24T05:00:00.000Z'), NY)).toBe('2026-11-24');
    expect(dayKeyOf(Date.parse('2026-11-24T05:00:00.000Z'), 'Asia/Tokyo')).toBe('2026-11-24');
    expect(iso(dayRange('2026-11-24', NY).from)).toBe('2026-11-24T05:00:00.000Z');
    expect(iso(dayRange('2026-11-24', 'Asia/Tokyo').from)).toBe('2026-11-23T15:00:00.000Z');
  });

  it('last 23 hours when clocks go forward and 25 when they go back (New York, 2026)', () => {
    const spring = dayRange('2026-03-08', NY);
    expect([iso(spring.from), iso(spring.to), hours(spring)]).toEqual([
      '2026-03-08T05:00:00.000Z',
      '2026-03-09T04:00:00.000Z',
      23,
    ]);
    const autumn = dayRange('2026-11-01', NY);
    expect([iso(autumn.from), iso(autumn.to), hours(autumn)]).toEqual([
      '2026-11-01T04:00:00.000Z',
      '2026-11-02T05:00:00.000Z',
      25,
    ]);
    expect(hours(dayRange('2026-11-02', NY))).toBe(24);
    // Half-hour changes too (Lord Howe Island).
    expect(hours(dayRange('2026-04-05', 'Australia/Lord_Howe'))).toBe(24.5);
  });

  it('begin when the clocks jump, in a zone whose change swallows midnight (Santiago)', () => {
    const day = dayRange('2026-09-06', 'America/Santiago');
    expect(iso(day.from)).toBe('2026-09-06T04:00:00.000Z');
    expect(wallInputOf(iso(day.from), 'America/Santiago')).toBe('2026-09-06T01:00');
    expect(hours(day)).toBe(23);
  });
});

describe('weeks', () => {
  it('start on Monday', () => {
    expect(mondayOf('2026-11-23')).toBe('2026-11-23');
    expect(mondayOf('2026-11-29')).toBe('2026-11-23');
    expect(mondayOf('2026-11-30')).toBe('2026-11-30');
    expect(mondayOf('2027-01-01')).toBe('2026-12-28');
    expect(weekDays('2026-12-28')).toEqual([
      '2026-12-28',
      '2026-12-29',
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
      '2027-01-03',
    ]);
  });

  it('hold the hour the clocks change: 7 × 24 − 1 and 7 × 24 + 1', () => {
    expect(hours(weekRange('2026-02-23', NY))).toBe(168);
    expect(mondayOf('2026-03-08')).toBe('2026-03-02');
    expect(hours(weekRange(mondayOf('2026-03-08'), NY))).toBe(167);
    expect(hours(weekRange(mondayOf('2026-11-01'), NY))).toBe(169);
  });
});

describe('day keys and wall-clock inputs', () => {
  it('count days across months and years, and refuse days that do not exist', () => {
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(daysBetween('2026-01-01', '2027-01-01')).toBe(365);
    expect(daysBetween('2026-03-01', '2026-03-31')).toBe(30);
    expect(isDayKey('2026-02-28')).toBe(true);
    expect(isDayKey('2026-02-30')).toBe(false);
    expect(isDayKey('26-2-3')).toBe(false);
  });

  it('turn a datetime-local value in the organisation’s zone into UTC and back', () => {
    expect(instantOfWallInput('2026-11-23T08:02', NY)).toBe('2026-11-23T13:02:00.000Z');
    expect(instantOfWallInput('2026-07-01T08:02', NY)).toBe('2026-07-01T12:02:00.000Z');
    expect(wallInputOf('2026-11-23T13:02:59.999Z', NY)).toBe('2026-11-23T08:02');
    expect(wallTimeOf(Date.parse('2026-11-24T02:30:00.000Z'), NY)).toBe('21:30');
    // The repeated hour when clocks go back: the first of the two.
    expect(instantOfWallInput('2026-11-01T01:30', NY)).toBe('2026-11-01T05:30:00.000Z');
  });

  it('refuse what is not a wall-clock time', () => {
    for (const value of [
      '',
      '2026-11-23',
      '2026-11-23 08:02',
      '2026-02-30T08:00',
      '2026-11-23T24:00',
    ]) {
      expect(instantOfWallInput(value, NY), value).toBeNull();
    }
  });

  it('fall back to the default zone when the organisation has none or an unknown one', () => {
    expect(orgTimeZone('Europe/Amsterdam')).toBe('Europe/Amsterdam');
    expect(orgTimeZone(null)).toBe(NY);
    expect(orgTimeZone('Mars/Olympus_Mons')).toBe(NY);
  });

  it('reads a wall time as RFC 5545 does: after a gap with the offset before it, the first of a repeat', () => {
    const wall = (text: string) => Date.parse(`${text}:00.000Z`);
    const at = (text: string, zone: string) =>
      new Date(instantOfWallTime(wall(text), zone)).toISOString();
    expect(at('2026-03-08T02:30', NY)).toBe('2026-03-08T07:30:00.000Z'); // 03:30 EDT
    expect(at('2026-03-29T01:30', 'Europe/London')).toBe('2026-03-29T01:30:00.000Z'); // 02:30 BST
    expect(at('2026-10-04T02:30', 'Australia/Sydney')).toBe('2026-10-03T16:30:00.000Z'); // 03:30 AEDT
    expect(at('2026-11-01T01:30', NY)).toBe('2026-11-01T05:30:00.000Z'); // the EDT one
    expect(at('2026-07-01T12:00', NY)).toBe('2026-07-01T16:00:00.000Z');
    expect(wallMsOf(Date.parse('2026-07-01T16:00:00.000Z'), NY)).toBe(wall('2026-07-01T12:00'));
  });
});

// The cached offsets (a quarter of an hour at a time) read every instant as Intl does: zones with
// half- and quarter-hour offsets and a half-hour daylight shift included.
describe('the wall clock, cached per quarter of an hour', () => {
  const zones = [
    NY,
    'Europe/Berlin',
    'Australia/Lord_Howe',
    'Asia/Kathmandu',
    'Pacific/Chatham',
    'America/St_Johns',
    'UTC',
  ];
  const formats = new Map<string, Intl.DateTimeFormat>();
  const formatOf = (timeZone: string) =>
    formats.get(timeZone) ??
    formats
      .set(
        timeZone,
        new Intl.DateTimeFormat('en-US', {
          timeZone,
          hourCycle: 'h23',
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          second: '2-digit',
        }),
      )
      .get(timeZone)!;
  const intlWallMs = (ms: number, timeZone: string) => {
    const parts = formatOf(timeZone).formatToParts(ms);
    const n = (type: string) => Number(parts.find((p) => p.type === type)!.value);
    const date = new Date(0);
    date.setUTCFullYear(n('year'), n('month') - 1, n('day'));
    return date.setUTCHours(n('hour'), n('minute'), n('second'));
  };

  it('agrees with Intl at random instants of two centuries', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1950, 0, 1), max: Date.UTC(2150, 0, 1) }),
        fc.constantFrom(...zones),
        (ms, zone) => {
          expect(wallMsOf(ms, zone)).toBe(intlWallMs(ms, zone));
          expect(dayKeyOf(ms, zone)).toBe(
            new Date(intlWallMs(ms, zone)).toISOString().slice(0, 10),
          );
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('agrees with Intl every 7 minutes of a year, clock changes included', () => {
    const step = 7 * 60_000 + 13_000;
    for (const zone of zones)
      for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2027, 0, 1); ms += step)
        if (wallMsOf(ms, zone) !== intlWallMs(ms, zone))
          throw new Error(`${zone} at ${iso(ms)}: ${wallMsOf(ms, zone)} ≠ ${intlWallMs(ms, zone)}`);
  });
});
