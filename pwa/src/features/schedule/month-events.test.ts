import { describe, expect, it } from 'vitest';
import type { OccurrenceDoc } from '@platform/schema/schedule/schedule.zod';
import { fewEachDay, moreByDay, paddedWindow } from './month-events.ts';

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
    expect(fewEachDay(times, 'America/New_York', 3).map((o) => o.startsAt)).toEqual([
      '2027-03-01T12:00:00.000Z',
      '2027-03-01T13:00:00.000Z',
      '2027-03-01T14:00:00.000Z',
      '2027-03-02T15:00:00.000Z',
    ]);
    expect(moreByDay(times, 'America/New_York', 3)).toEqual([['2027-03-01', 2]]);
    expect(moreByDay(times, 'UTC', 3)).toEqual([['2027-03-01', 1]]);
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
});
