import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dayKeyOf, dayRange, wallTimeOf, type Range } from '../time-tracking/org-calendar.ts';
import {
  expandOccurrences,
  fromRRule,
  MAX_OCCURRENCES,
  recurrenceSchema,
  toRRule,
  type Recurrence,
  type Series,
} from './recurrence.ts';

const NY = 'America/New_York';
const LONDON = 'Europe/London';
const range = (from: string, to: string): Range => ({
  from: Date.parse(from),
  to: Date.parse(to),
});
const iso = (ms: number) => new Date(ms).toISOString();
const weekly = (recurrence: Recurrence) => toRRule(recurrence);

describe('recurrence rules', () => {
  it('writes what staff choose as an RRULE line, and reads it back', () => {
    const choices: Recurrence[] = [
      { weekdays: ['MO', 'WE'], intervalWeeks: 1, end: { kind: 'count', count: 10 } },
      { weekdays: ['FR'], intervalWeeks: 2, end: { kind: 'until', until: '2027-03-31' } },
      { weekdays: ['SA', 'SU', 'TU'], intervalWeeks: 52, end: { kind: 'count', count: 1 } },
    ];
    expect(toRRule(choices[0]!)).toBe('FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,WE;COUNT=10');
    expect(toRRule(choices[1]!)).toBe('FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;UNTIL=20270331T235959Z');
    for (const choice of choices) expect(fromRRule(toRRule(choice))).toEqual(choice);
    expect(fromRRule('FREQ=DAILY;COUNT=3')).toBeNull();
    expect(fromRRule('not a rule')).toBeNull();
  });

  it('refuses what cannot be repeated', () => {
    const bad = (over: Partial<Recurrence>) =>
      recurrenceSchema.safeParse({
        weekdays: ['MO'],
        intervalWeeks: 1,
        end: { kind: 'count', count: 3 },
        ...over,
      }).success;
    expect(bad({ weekdays: [] })).toBe(false);
    expect(bad({ weekdays: ['MO', 'MO'] })).toBe(false);
    expect(bad({ intervalWeeks: 0 })).toBe(false);
    expect(bad({ intervalWeeks: 53 })).toBe(false);
    expect(bad({ end: { kind: 'count', count: MAX_OCCURRENCES + 1 } })).toBe(false);
    expect(bad({ end: { kind: 'until', until: '2027-02-30' } })).toBe(false);
    expect(bad({})).toBe(true);
  });
});

describe('expanding a series in the organisation’s time zone', () => {
  const mondaysAt6pm: Series = {
    firstStart: '2026-03-02T18:00',
    durationMinutes: 60,
    rrule: weekly({ weekdays: ['MO'], intervalWeeks: 1, end: { kind: 'count', count: 4 } }),
    timeZone: NY,
  };

  it('keeps an 18:00 class at 18:00 across the spring change (the instant moves an hour)', () => {
    const all = expandOccurrences(mondaysAt6pm, range('2026-01-01T00:00Z', '2027-01-01T00:00Z'));
    expect(all.map((o) => iso(o.start))).toEqual([
      '2026-03-02T23:00:00.000Z', // EST
      '2026-03-09T22:00:00.000Z', // EDT from Mar 8
      '2026-03-16T22:00:00.000Z',
      '2026-03-23T22:00:00.000Z',
    ]);
    expect(all.every((o) => wallTimeOf(o.start, NY) === '18:00')).toBe(true);
    expect(all.every((o) => o.end - o.start === 3_600_000)).toBe(true);
    expect(all.map((o) => o.day)).toEqual(['2026-03-02', '2026-03-09', '2026-03-16', '2026-03-23']);
  });

  it('and across the autumn change, in London too', () => {
    const sundaysAt9 = expandOccurrences(
      {
        firstStart: '2026-10-18T09:00',
        durationMinutes: 45,
        rrule: weekly({ weekdays: ['SU'], intervalWeeks: 1, end: { kind: 'count', count: 3 } }),
        timeZone: LONDON,
      },
      range('2026-10-01T00:00Z', '2026-12-01T00:00Z'),
    );
    expect(sundaysAt9.map((o) => iso(o.start))).toEqual([
      '2026-10-18T08:00:00.000Z', // BST
      '2026-10-25T09:00:00.000Z', // GMT: the change is that very night
      '2026-11-01T09:00:00.000Z',
    ]);
  });

  it('moves a time the clocks skip to just after the gap, and takes the first of a repeated one', () => {
    const at = (firstStart: string, count: number) =>
      expandOccurrences(
        {
          firstStart,
          durationMinutes: 30,
          rrule: weekly({ weekdays: ['SU'], intervalWeeks: 1, end: { kind: 'count', count } }),
          timeZone: NY,
        },
        range('2026-01-01T00:00Z', '2027-01-01T00:00Z'),
      );
    // 02:30 does not exist on Mar 8 in New York: RFC 5545 reads it with the offset before the
    // gap, 03:30 EDT; the week after it is 02:30 again.
    const spring = at('2026-03-01T02:30', 3);
    expect(spring.map((o) => `${dayKeyOf(o.start, NY)} ${wallTimeOf(o.start, NY)}`)).toEqual([
      '2026-03-01 02:30',
      '2026-03-08 03:30',
      '2026-03-15 02:30',
    ]);
    // 01:30 happens twice on Nov 1: the first (EDT) is the class.
    const autumn = at('2026-11-01T01:30', 1);
    expect(autumn.map((o) => iso(o.start))).toEqual(['2026-11-01T05:30:00.000Z']);
  });

  it('repeats every other week on chosen days until a day, that day included', () => {
    const all = expandOccurrences(
      {
        firstStart: '2026-06-01T07:00',
        durationMinutes: 60,
        rrule: weekly({
          weekdays: ['MO', 'TH'],
          intervalWeeks: 2,
          end: { kind: 'until', until: '2026-06-29' },
        }),
        timeZone: NY,
      },
      range('2026-01-01T00:00Z', '2027-01-01T00:00Z'),
    );
    expect(all.map((o) => o.day)).toEqual([
      '2026-06-01',
      '2026-06-04',
      '2026-06-15',
      '2026-06-18',
      '2026-06-29',
    ]);
  });

  it('gives only what overlaps the window, leaves out excepted days, and a one-off once', () => {
    const day = dayRange('2026-03-16', NY);
    expect(expandOccurrences(mondaysAt6pm, day).map((o) => o.day)).toEqual(['2026-03-16']);
    // A class running over midnight into the window counts.
    const late = expandOccurrences(
      { ...mondaysAt6pm, firstStart: '2026-03-01T23:30', durationMinutes: 60, rrule: null },
      dayRange('2026-03-02', NY),
    );
    expect(late).toHaveLength(1);
    expect(
      expandOccurrences(
        { ...mondaysAt6pm, exceptDays: ['2026-03-09'] },
        range('2026-03-01T00:00Z', '2026-04-01T00:00Z'),
      ).map((o) => o.day),
    ).toEqual(['2026-03-02', '2026-03-16', '2026-03-23']);
    expect(expandOccurrences({ ...mondaysAt6pm, firstStart: '2026-02-30T18:00' }, day)).toEqual([]);
    expect(expandOccurrences({ ...mondaysAt6pm, rrule: 'FREQ=NONSENSE' }, day)).toEqual([]);
  });

  it('never returns more than its limit, however long the window', () => {
    const daily = expandOccurrences(
      {
        firstStart: '2026-01-01T06:00',
        durationMinutes: 30,
        rrule: 'FREQ=DAILY',
        timeZone: NY,
      },
      range('2026-01-01T00:00Z', '2030-01-01T00:00Z'),
    );
    expect(daily).toHaveLength(MAX_OCCURRENCES);
  });

  it('keeps every weekly occurrence on its wall time, in order, within the window (property)', () => {
    const zones = [
      'America/New_York',
      'Europe/London',
      'Australia/Sydney',
      'Pacific/Auckland',
      'Asia/Kolkata',
      'UTC',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: 0, max: 364 }),
        fc.integer({ min: 4, max: 22 }),
        fc.constantFrom(0, 15, 30, 45),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 60 }),
        (zone, dayOffset, hour, minute, interval, count) => {
          const first = new Date(Date.UTC(2026, 0, 1 + dayOffset));
          const firstDay = first.toISOString().slice(0, 10);
          const wall = `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
          const all = expandOccurrences(
            {
              firstStart: `${firstDay}T${wall}`,
              durationMinutes: 60,
              rrule: `FREQ=WEEKLY;INTERVAL=${interval};COUNT=${count}`,
              timeZone: zone,
            },
            range('2025-12-01T00:00Z', '2036-01-01T00:00Z'),
          );
          if (all.length !== count) return false;
          return all.every(
            (o, i) =>
              (i === 0 || o.start > all[i - 1]!.start) &&
              // Hours 4–22 are never skipped by a clock change in these zones.
              wallTimeOf(o.start, zone) === wall &&
              dayKeyOf(o.start, zone) === o.day,
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
