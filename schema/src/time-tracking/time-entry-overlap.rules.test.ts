import { describe, expect, it } from 'vitest';
import { entriesOverlap, overlapRefusals, type EntrySpan } from './time-entry-overlap.rules.ts';
import { timeEntryOverlapMessage } from './time-tracking.messages.ts';

const person = { orgId: 'org-1', userId: 'user-1' };
const at = (hhmm: string) => `2026-11-23T${hhmm}:00.000Z`;
const span = (id: string, start: string, end: string | null, extra: Partial<EntrySpan> = {}) => ({
  id,
  ...person,
  startTime: at(start),
  endTime: end === null ? null : at(end),
  _deleted: false,
  ...extra,
});
const change = (
  next: ReturnType<typeof span>,
  master: ReturnType<typeof span> | null = null,
  updatedAt = at('23:00'),
) => ({
  next: { ...next, updatedAt },
  master,
});
const refused = (id: string) => ({ id, message: timeEntryOverlapMessage });

describe('entriesOverlap', () => {
  it('compares half-open intervals of one person; a running entry is open-ended', () => {
    expect(entriesOverlap(span('a', '08:00', '12:00'), span('b', '11:59', '13:00'))).toBe(true);
    expect(entriesOverlap(span('a', '08:00', '12:00'), span('b', '12:00', '13:00'))).toBe(false);
    expect(entriesOverlap(span('a', '08:00', '12:00'), span('b', '06:00', '08:00'))).toBe(false);
    expect(entriesOverlap(span('a', '08:00', '12:00'), span('b', '09:00', '10:00'))).toBe(true);
    expect(entriesOverlap(span('a', '08:00', null), span('b', '20:00', '21:00'))).toBe(true);
    expect(entriesOverlap(span('a', '08:00', null), span('b', '06:00', '07:00'))).toBe(false);
    expect(entriesOverlap(span('a', '08:00', null), span('b', '09:00', null))).toBe(true);
  });

  it('never between two people, or two organisations', () => {
    expect(
      entriesOverlap(
        span('a', '08:00', '12:00'),
        span('b', '09:00', '10:00', { userId: 'user-2' }),
      ),
    ).toBe(false);
    expect(
      entriesOverlap(span('a', '08:00', '12:00'), span('b', '09:00', '10:00', { orgId: 'org-2' })),
    ).toBe(false);
  });
});

describe('overlapRefusals', () => {
  const morning = span('morning', '08:00', '12:00');

  it('refuses a new entry over a stored one, and accepts one that only touches it', () => {
    expect(overlapRefusals([change(span('new', '11:00', '13:00'))], [morning])).toEqual([
      refused('new'),
    ]);
    expect(overlapRefusals([change(span('new', '12:00', '13:00'))], [morning])).toEqual([]);
    expect(overlapRefusals([change(span('new', '13:00', null))], [morning])).toEqual([]);
  });

  it('refuses a second running entry (two devices clocking in with two entries)', () => {
    const kiosk = span('kiosk', '08:02', null);
    expect(overlapRefusals([change(span('phone', '08:05', null))], [kiosk])).toEqual([
      refused('phone'),
    ]);
    // The same entry from two devices is a merge, never an overlap with itself.
    expect(overlapRefusals([change({ ...kiosk, startTime: at('08:00') }, kiosk)], [kiosk])).toEqual(
      [],
    );
  });

  it('refuses moving an entry onto another, but not moving it within its own old times', () => {
    const afternoon = span('afternoon', '13:00', '17:00');
    expect(
      overlapRefusals(
        [change({ ...afternoon, startTime: at('11:30') }, afternoon)],
        [morning, afternoon],
      ),
    ).toEqual([refused('afternoon')]);
    expect(
      overlapRefusals(
        [change({ ...afternoon, startTime: at('12:00') }, afternoon)],
        [morning, afternoon],
      ),
    ).toEqual([]);
  });

  it('ignores deleted entries, and always allows deleting', () => {
    expect(
      overlapRefusals([change(span('new', '09:00', '10:00'))], [{ ...morning, _deleted: true }]),
    ).toEqual([]);
    const overlapping = span('old', '09:00', '10:00');
    expect(
      overlapRefusals(
        [change({ ...overlapping, _deleted: true }, overlapping)],
        [morning, overlapping],
      ),
    ).toEqual([]);
  });

  it('lets an entry that overlapped before the rule be shortened or clocked out, not grown into another', () => {
    const running = span('running', '07:00', null);
    const stored = [morning, running];
    expect(
      overlapRefusals([change({ ...running, endTime: at('09:00') }, running)], stored),
    ).toEqual([]);
    const old = span('old', '07:00', '09:00');
    const later = span('later', '13:00', '14:00');
    expect(
      overlapRefusals([change({ ...old, endTime: at('13:30') }, old)], [morning, old, later]),
    ).toEqual([refused('old')]);
  });

  it('checks a batch against itself: entries swapping places pass, two new overlapping ones refuse the later change', () => {
    const afternoon = span('afternoon', '13:00', '17:00');
    const swap = [
      change({ ...morning, startTime: at('13:00'), endTime: at('17:00') }, morning),
      change({ ...afternoon, startTime: at('08:00'), endTime: at('12:00') }, afternoon),
    ];
    expect(overlapRefusals(swap, [morning, afternoon])).toEqual([]);
    const first = change(span('first', '08:00', '10:00'), null, at('10:00'));
    const second = change(span('second', '09:00', '11:00'), null, at('11:00'));
    expect(overlapRefusals([second, first], [])).toEqual([refused('second')]);
  });
});
