import { describe, expect, it } from 'vitest';
import type { OccurrenceDoc } from '@platform/schema/schedule/schedule.zod';
import {
  latestById,
  monthDays,
  neighbourRanges,
  paddedWindow,
  sameDocuments,
  windowsAround,
} from './month-events.ts';

const at = (startsAt: string): OccurrenceDoc => ({
  id: crypto.randomUUID(),
  orgId: crypto.randomUUID(),
  classId: crypto.randomUUID(),
  appointmentTypeId: null,
  kind: 'class',
  title: startsAt,
  location: '',
  coachUserId: null,
  coachName: null,
  startsAt,
  endsAt: startsAt,
  capacity: 10,
  bookedCount: 0,
  waitlistCount: 0,
  cancelBy: startsAt,
  status: 'scheduled',
  detached: false,
  updatedAt: startsAt,
});

describe('the month view’s events', () => {
  // In New York, 03:00Z on the 2nd is still the 1st.
  const times = [
    '2027-03-01T15:00:00.000Z',
    '2027-03-01T13:00:00.000Z',
    '2027-03-02T03:00:00.000Z',
    '2027-03-01T14:00:00.000Z',
    '2027-03-01T12:00:00.000Z',
    '2027-03-02T15:00:00.000Z',
  ].map(at);

  it('draws the first few of each organisation day in time order, and counts the rest', () => {
    const newYork = monthDays(times, 'America/New_York', 3);
    expect(newYork.drawn.map((o) => o.startsAt)).toEqual([
      '2027-03-01T12:00:00.000Z',
      '2027-03-01T13:00:00.000Z',
      '2027-03-01T14:00:00.000Z',
      '2027-03-02T15:00:00.000Z',
    ]);
    expect(newYork.more).toEqual([['2027-03-01', 2]]);
    expect(monthDays(times, 'UTC', 3).more).toEqual([['2027-03-01', 1]]);
  });

  it('reads a view’s length either side of it, at most six weeks', () => {
    expect(
      paddedWindow({ from: '2027-03-01T00:00:00.000Z', to: '2027-03-08T00:00:00.000Z' }),
    ).toEqual({ from: '2027-02-22T00:00:00.000Z', to: '2027-03-15T00:00:00.000Z' });
    const month = paddedWindow({
      from: '2027-03-01T00:00:00.000Z',
      to: '2027-04-12T00:00:00.000Z',
    });
    expect(month.from).toBe('2027-01-18T00:00:00.000Z');
  });

  it('reads the shown range by itself, and the same length before and after it, edge to edge', () => {
    const range = { from: '2027-03-01T00:00:00.000Z', to: '2027-03-08T00:00:00.000Z' };
    expect(windowsAround(range)).toEqual({
      before: { from: '2027-02-22T00:00:00.000Z', to: range.from },
      shown: range,
      after: { from: range.to, to: '2027-03-15T00:00:00.000Z' },
    });
  });

  it('reads what Previous and Next will show in a month across a daylight-saving change', () => {
    // November 2026 in New York: Monday 26 October (EDT) to Monday 7 December (EST).
    const november = {
      from: '2026-10-26T04:00:00.000Z',
      to: '2026-12-07T05:00:00.000Z',
      view: 'dayGridMonth',
    };
    expect(windowsAround(november, 'America/New_York')).toEqual({
      // October: from Monday 28 September; December: from Monday 30 November.
      before: { from: '2026-09-28T04:00:00.000Z', to: '2026-11-09T05:00:00.000Z' },
      shown: { from: november.from, to: november.to },
      after: { from: '2026-11-30T05:00:00.000Z', to: '2027-01-11T05:00:00.000Z' },
    });
  });

  it('steps weeks and days in the calendar’s zone, and a month whose first day is a Monday', () => {
    const week = { from: '2027-03-08T05:00:00.000Z', to: '2027-03-15T04:00:00.000Z' };
    // New York moves its clocks on Sunday 14 March 2027: the week after is 7 local days.
    expect(neighbourRanges({ ...week, view: 'timeGridWeek' }, 'America/New_York')).toEqual({
      before: { from: '2027-03-01T05:00:00.000Z', to: '2027-03-08T05:00:00.000Z' },
      after: { from: '2027-03-15T04:00:00.000Z', to: '2027-03-22T04:00:00.000Z' },
    });
    expect(
      neighbourRanges(
        { from: '2027-03-14T05:00:00.000Z', to: '2027-03-15T04:00:00.000Z', view: 'timeGridDay' },
        'America/New_York',
      ),
    ).toEqual({
      before: { from: '2027-03-13T05:00:00.000Z', to: '2027-03-14T05:00:00.000Z' },
      after: { from: '2027-03-15T04:00:00.000Z', to: '2027-03-16T04:00:00.000Z' },
    });
    // February 2027 begins on a Monday: the grid starts on the 1st.
    expect(
      neighbourRanges(
        { from: '2027-02-01T00:00:00.000Z', to: '2027-03-15T00:00:00.000Z', view: 'dayGridMonth' },
        'UTC',
      )?.after,
    ).toEqual({ from: '2027-03-01T00:00:00.000Z', to: '2027-04-12T00:00:00.000Z' });
  });

  it('assumes nothing about a range it does not lay out itself', () => {
    // Not midnight in the zone, or a view it does not step: the padded window is read instead.
    const odd = { from: '2027-03-08T00:00:00.000Z', to: '2027-03-15T00:00:00.000Z' };
    expect(neighbourRanges({ ...odd, view: 'timeGridWeek' }, 'America/New_York')).toBeNull();
    expect(neighbourRanges({ ...odd, view: 'multiMonthYear' }, 'UTC')).toBeNull();
    expect(windowsAround({ ...odd, view: 'timeGridWeek' }, 'America/New_York')).toEqual(
      windowsAround(odd),
    );
    expect(windowsAround({ ...odd, view: 'timeGridWeek' }, 'Not/A_Zone')).toEqual(
      windowsAround(odd),
    );
  });

  it('joins the reads with each class time once, at its latest change', () => {
    const [first, second] = times;
    const later = { ...first!, bookedCount: 4, updatedAt: '2027-03-01T16:00:00.000Z' };
    // A read that has not answered since its window moved still holds the earlier version.
    const joined = latestById([first!], [later, second!], [first!]);
    expect(joined).toHaveLength(2);
    expect(joined.find((o) => o.id === first!.id)?.bookedCount).toBe(4);
    expect(latestById([later], [first!])[0]?.bookedCount).toBe(4);
  });

  it('tells the same documents at the same changes apart from any change, in any order', () => {
    const [a, b] = times;
    expect(sameDocuments([a!, b!], [b!, a!])).toBe(true);
    expect(sameDocuments([a!, b!], [a!])).toBe(false);
    expect(sameDocuments([a!, b!], [a!, { ...b!, updatedAt: '2027-03-05T00:00:00.000Z' }])).toBe(
      false,
    );
    expect(sameDocuments([a!, b!], [a!, { ...b!, id: crypto.randomUUID() }])).toBe(false);
  });
});
