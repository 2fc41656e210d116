import { describe, expect, it } from 'vitest';
import { mergeTimeEntries } from './time-entry.conflict.ts';
import { timeEntryRuleViolation } from './time-entry.rules.ts';

const base = {
  id: '6a4ad6a4-1d0f-4c53-9a2b-2a51a7c7a001',
  orgId: '6a4ad6a4-1d0f-4c53-9a2b-2a51a7c7a002',
  userId: '6a4ad6a4-1d0f-4c53-9a2b-2a51a7c7a003',
  startTime: '2026-11-23T08:05:00.000Z',
  endTime: null as string | null,
  breakIntervals: [] as Array<{ startTime: string; endTime: string | null }>,
  updatedAt: '2026-11-23T08:05:00.000Z',
  _deleted: false,
};

describe('mergeTimeEntries', () => {
  it('keeps the earliest clock-in and the latest clock-out', () => {
    const kiosk = {
      ...base,
      startTime: '2026-11-23T08:02:00.000Z',
      endTime: '2026-11-23T16:00:00.000Z',
      updatedAt: '2026-11-23T16:00:00.000Z',
    };
    const phone = {
      ...base,
      endTime: '2026-11-23T16:30:00.000Z',
      updatedAt: '2026-11-23T16:30:00.000Z',
    };
    const merged = mergeTimeEntries(kiosk, phone);
    expect(merged).toMatchObject({
      startTime: '2026-11-23T08:02:00.000Z',
      endTime: '2026-11-23T16:30:00.000Z',
    });
    expect(mergeTimeEntries(phone, kiosk)).toEqual({ ...merged, updatedAt: merged.updatedAt });
  });

  it('prefers a finished entry to one still running, and keeps both devices’ breaks', () => {
    const running = {
      ...base,
      breakIntervals: [{ startTime: '2026-11-23T10:00:00.000Z', endTime: null }],
    };
    const finished = {
      ...base,
      endTime: '2026-11-23T15:00:00.000Z',
      breakIntervals: [
        { startTime: '2026-11-23T10:00:00.000Z', endTime: '2026-11-23T10:20:00.000Z' },
        { startTime: '2026-11-23T13:00:00.000Z', endTime: '2026-11-23T13:10:00.000Z' },
      ],
    };
    const merged = mergeTimeEntries(running, finished);
    expect(merged.endTime).toBe('2026-11-23T15:00:00.000Z');
    expect(merged.breakIntervals).toEqual(finished.breakIntervals);
    expect(timeEntryRuleViolation(merged)).toBeNull();
  });

  it('falls back to the later change rather than produce an impossible entry', () => {
    const a = {
      ...base,
      endTime: '2026-11-23T09:00:00.000Z',
      breakIntervals: [
        { startTime: '2026-11-23T08:30:00.000Z', endTime: '2026-11-23T08:40:00.000Z' },
      ],
      updatedAt: '2026-11-23T09:00:00.000Z',
    };
    const b = {
      ...base,
      breakIntervals: [
        { startTime: '2026-11-23T08:35:00.000Z', endTime: '2026-11-23T08:50:00.000Z' },
      ],
      updatedAt: '2026-11-23T09:30:00.000Z',
    };
    const merged = mergeTimeEntries(a, b);
    expect(timeEntryRuleViolation(merged)).toBeNull();
    expect(merged).toEqual(b);
  });

  it('lets the later of a deletion and an edit win', () => {
    const deleted = { ...base, _deleted: true, updatedAt: '2026-11-23T12:00:00.000Z' };
    const edited = {
      ...base,
      endTime: '2026-11-23T11:00:00.000Z',
      updatedAt: '2026-11-23T11:00:00.000Z',
    };
    expect(mergeTimeEntries(edited, deleted)).toEqual(deleted);
  });
});
