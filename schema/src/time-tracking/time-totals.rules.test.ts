import { describe, expect, it } from 'vitest';
import {
  totalsByDay,
  totalsByPerson,
  totalsByPersonAndDay,
  weekTotals,
  workedMsWithin,
} from './time-totals.rules.ts';
import { weekDays } from './org-calendar.ts';

const NY = 'America/New_York';
const H = 3_600_000;
const M = 60_000;
const entry = (
  startTime: string,
  endTime: string | null,
  breaks: Array<[string, string | null]> = [],
) => ({
  startTime,
  endTime,
  breakIntervals: breaks.map(([b, e]) => ({ startTime: b, endTime: e })),
});
const now = Date.parse('2026-12-01T12:00:00.000Z');

describe('time worked', () => {
  it('subtracts breaks', () => {
    const day = entry('2026-11-23T13:00:00.000Z', '2026-11-23T21:30:00.000Z', [
      ['2026-11-23T17:00:00.000Z', '2026-11-23T17:30:00.000Z'],
      ['2026-11-23T19:00:00.000Z', '2026-11-23T19:15:00.000Z'],
    ]);
    expect(workedMsWithin(day, now)).toBe(8.5 * H - 45 * M);
  });

  it('counts a running entry, and a running break, up to now', () => {
    const running = entry('2026-12-01T09:00:00.000Z', null);
    expect(workedMsWithin(running, now)).toBe(3 * H);
    const onBreak = entry('2026-12-01T09:00:00.000Z', null, [['2026-12-01T11:30:00.000Z', null]]);
    expect(workedMsWithin(onBreak, now)).toBe(2.5 * H);
    // A device clock ahead of now never makes time negative.
    expect(workedMsWithin(entry('2026-12-01T13:00:00.000Z', null), now)).toBe(0);
  });
});

describe('totals per day', () => {
  it('split an entry crossing midnight between the two days, breaks with it', () => {
    // 22:00 Monday to 02:00 Tuesday in New York, a break 23:30–00:30 across midnight.
    const night = entry('2026-11-24T03:00:00.000Z', '2026-11-24T07:00:00.000Z', [
      ['2026-11-24T04:30:00.000Z', '2026-11-24T05:30:00.000Z'],
    ]);
    const [monday, tuesday, wednesday] = totalsByDay(
      [night],
      ['2026-11-23', '2026-11-24', '2026-11-25'],
      NY,
      now,
    );
    expect(monday?.workedMs).toBe(1.5 * H);
    expect(tuesday?.workedMs).toBe(1.5 * H);
    expect(monday?.entries).toEqual([night]);
    expect(tuesday?.entries).toEqual([night]);
    expect(wednesday).toMatchObject({ workedMs: 0, entries: [] });
  });

  it('use the organisation’s midnight: the same entry falls on another day in Tokyo', () => {
    const evening = entry('2026-11-23T23:00:00.000Z', '2026-11-24T01:00:00.000Z');
    expect(totalsByDay([evening], ['2026-11-23'], NY, now)[0]?.workedMs).toBe(2 * H);
    expect(totalsByDay([evening], ['2026-11-24'], 'Asia/Tokyo', now)[0]?.workedMs).toBe(2 * H);
  });

  it('give 23 hours to the spring-forward day and 25 to the fall-back day (New York, 2026)', () => {
    // Midnight to midnight local time on each day.
    const spring = entry('2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z');
    const autumn = entry('2026-11-01T04:00:00.000Z', '2026-11-02T05:00:00.000Z');
    expect(
      totalsByDay([spring], ['2026-03-07', '2026-03-08', '2026-03-09'], NY, now).map(
        (d) => d.workedMs,
      ),
    ).toEqual([0, 23 * H, 0]);
    expect(
      totalsByDay([autumn], ['2026-10-31', '2026-11-01', '2026-11-02'], NY, now).map(
        (d) => d.workedMs,
      ),
    ).toEqual([0, 25 * H, 0]);
    // A night shift through the change: 22:00 to 06:00 local is 9 hours of work that night.
    const nightShift = entry('2026-11-01T02:00:00.000Z', '2026-11-01T11:00:00.000Z');
    expect(workedMsWithin(nightShift, now)).toBe(9 * H);
    const [saturday, sunday] = totalsByDay([nightShift], ['2026-10-31', '2026-11-01'], NY, now);
    expect([saturday?.workedMs, sunday?.workedMs]).toEqual([2 * H, 7 * H]);
  });
});

describe('totals per week', () => {
  it('sum the days from Monday, leaving out time outside the week', () => {
    const before = entry('2026-11-22T15:00:00.000Z', '2026-11-22T17:00:00.000Z'); // Sunday before
    const monday = entry('2026-11-23T14:00:00.000Z', '2026-11-23T22:00:00.000Z', [
      ['2026-11-23T17:00:00.000Z', '2026-11-23T17:30:00.000Z'],
    ]);
    const sundayNight = entry('2026-11-30T03:00:00.000Z', '2026-11-30T07:00:00.000Z'); // 22:00 Sun → 02:00 Mon
    const week = weekTotals([sundayNight, monday, before], '2026-11-23', NY, now);
    expect(week.days.map((d) => d.day)).toEqual([
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
    ]);
    expect(week.days[0]).toMatchObject({ workedMs: 7.5 * H, entries: [monday] });
    expect(week.days[6]?.workedMs).toBe(2 * H);
    expect(week.totalMs).toBe(9.5 * H);
  });

  it('count a running entry up to now in this week', () => {
    const running = entry('2026-12-01T09:00:00.000Z', null);
    expect(weekTotals([running], '2026-11-30', NY, now).totalMs).toBe(3 * H);
  });

  it('hold 167 hours in the week clocks go forward', () => {
    // Monday 23 February 00:00 EST to Monday 9 March 00:00 EDT, without a break.
    const twoWeeks = entry('2026-02-23T05:00:00.000Z', '2026-03-09T04:00:00.000Z');
    expect(weekTotals([twoWeeks], '2026-02-23', NY, now).totalMs).toBe(168 * H);
    expect(weekTotals([twoWeeks], '2026-03-02', NY, now).totalMs).toBe(167 * H);
  });
});

describe('totals per person', () => {
  it('list everyone asked for, with nobody’s time lost', () => {
    const range = {
      from: Date.parse('2026-11-23T05:00:00.000Z'),
      to: Date.parse('2026-11-30T05:00:00.000Z'),
    };
    const entries = [
      { userId: 'b', ...entry('2026-11-24T13:00:00.000Z', '2026-11-24T15:00:00.000Z') },
      { userId: 'c', ...entry('2026-11-24T13:00:00.000Z', '2026-11-24T14:00:00.000Z') },
    ];
    expect(totalsByPerson(entries, ['a', 'b'], range, now)).toEqual([
      { userId: 'a', workedMs: 0 },
      { userId: 'b', workedMs: 2 * H },
      { userId: 'c', workedMs: H },
    ]);
  });
});

describe('the team week grid', () => {
  const monday = '2026-11-23';
  const days = weekDays(monday);
  const of = (userId: string, e: ReturnType<typeof entry>) => ({ ...e, userId });

  it('gives each person a cell per day, split at midnight, and a total that is their sum', () => {
    const rows = totalsByPersonAndDay(
      [
        // Ana: Monday 9–17 (New York), a break of 30 min.
        of(
          'ana',
          entry('2026-11-23T14:00:00.000Z', '2026-11-23T22:00:00.000Z', [
            ['2026-11-23T17:00:00.000Z', '2026-11-23T17:30:00.000Z'],
          ]),
        ),
        // Ben: Tuesday 22:00 to Wednesday 02:00.
        of('ben', entry('2026-11-25T03:00:00.000Z', '2026-11-25T07:00:00.000Z')),
      ],
      ['ana', 'ben', 'cy'],
      days,
      NY,
      now,
    );
    expect(rows.map((row) => row.userId)).toEqual(['ana', 'ben', 'cy']);
    expect(rows[0]!.days).toEqual([7.5 * H, 0, 0, 0, 0, 0, 0]);
    expect(rows[1]!.days).toEqual([0, 2 * H, 2 * H, 0, 0, 0, 0]);
    expect(rows[2]).toEqual({ userId: 'cy', days: [0, 0, 0, 0, 0, 0, 0], totalMs: 0 });
    for (const row of rows) expect(row.totalMs).toBe(row.days.reduce((a, b) => a + b, 0));
  });

  it('adds someone not listed only when they have time that week', () => {
    const rows = totalsByPersonAndDay(
      [
        of('former', entry('2026-11-24T14:00:00.000Z', '2026-11-24T15:00:00.000Z')),
        of('last-week', entry('2026-11-16T14:00:00.000Z', '2026-11-16T15:00:00.000Z')),
      ],
      [],
      days,
      NY,
      now,
    );
    expect(rows).toEqual([{ userId: 'former', days: [0, H, 0, 0, 0, 0, 0], totalMs: H }]);
  });

  it('agrees with the per-person totals of the same week', () => {
    const entries = [
      of('ana', entry('2026-11-23T14:00:00.000Z', '2026-11-23T22:00:00.000Z')),
      of('ana', entry('2026-11-29T23:00:00.000Z', '2026-11-30T06:00:00.000Z')),
      of('ben', entry('2026-11-27T14:00:00.000Z', null)),
    ];
    const grid = totalsByPersonAndDay(entries, ['ana', 'ben'], days, NY, now);
    const range = weekTotals([], monday, NY, now).range;
    expect(grid.map((row) => row.totalMs)).toEqual(
      totalsByPerson(entries, ['ana', 'ben'], range, now).map((row) => row.workedMs),
    );
  });
});
