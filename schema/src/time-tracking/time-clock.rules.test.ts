import { describe, expect, it } from 'vitest';
import {
  applyClockAction,
  clockActions,
  clockMessages,
  clockStatusOf,
  clockTimeRefusal,
  runningEntryConflict,
  type ClockAction,
  type ClockState,
  type ClockStatus,
  whoIsOnTheClock,
} from './time-clock.rules.ts';
import { timeEntryMessages } from './time-entry.rules.ts';
import type { TimeEntryDoc } from './time-entry.zod.ts';

const target = {
  orgId: '6a4ad6a4-1d0f-4c53-9a2b-2a51a7c7a002',
  userId: '6a4ad6a4-1d0f-4c53-9a2b-2a51a7c7a003',
  newEntryId: '6a4ad6a4-1d0f-4c53-9a2b-2a51a7c7a0ff',
};
const entryId = '6a4ad6a4-1d0f-4c53-9a2b-2a51a7c7a001';
const t = (hhmm: string) => `2026-11-23T${hhmm}:00.000Z`;
const at = (hhmm: string) => new Date(t(hhmm));

const entry = (overrides: Partial<TimeEntryDoc> & { _deleted?: boolean } = {}) => ({
  id: entryId,
  startTime: t('08:02'),
  endTime: null as string | null,
  breakIntervals: [] as TimeEntryDoc['breakIntervals'],
  ...overrides,
});

const states: Record<ClockStatus, ClockState> = {
  none: { status: 'none', activeEntry: null },
  completed: { status: 'completed', activeEntry: null },
  active: {
    status: 'active',
    activeEntry: { id: entryId, startTime: t('08:02'), breakIntervals: [] },
  },
  on_break: {
    status: 'on_break',
    activeEntry: {
      id: entryId,
      startTime: t('08:02'),
      breakIntervals: [{ startTime: t('10:00'), endTime: null }],
    },
  },
};

const entryOf = (move: ReturnType<typeof applyClockAction>) => {
  if (!move.ok) throw new Error(`refused: ${move.message}`);
  return move.entry;
};

describe('clockStatusOf', () => {
  it('is none without entries, and tombstones do not count', () => {
    expect(clockStatusOf([])).toEqual(states.none);
    expect(clockStatusOf([entry({ _deleted: true })])).toEqual(states.none);
  });

  it('is active while an entry runs without a running break', () => {
    const breaks = [{ startTime: t('10:00'), endTime: t('10:15') }];
    expect(clockStatusOf([entry({ breakIntervals: breaks })])).toEqual({
      status: 'active',
      activeEntry: { id: entryId, startTime: t('08:02'), breakIntervals: breaks },
    });
  });

  it('is on_break while the running entry’s last break runs', () => {
    expect(
      clockStatusOf([entry({ breakIntervals: [{ startTime: t('10:00'), endTime: null }] })]),
    ).toEqual(states.on_break);
  });

  it('is completed when every entry is closed', () => {
    expect(
      clockStatusOf([
        entry({ endTime: t('16:00') }),
        entry({ id: target.newEntryId, startTime: t('17:00'), endTime: t('18:00') }),
      ]),
    ).toEqual(states.completed);
  });

  it('acts on the latest running entry when two devices left two running', () => {
    const later = entry({ id: target.newEntryId, startTime: t('09:00') });
    expect(
      clockStatusOf([
        entry(),
        later,
        entry({ id: 'x', startTime: t('06:00'), endTime: t('07:00') }),
      ]).activeEntry?.id,
    ).toBe(later.id);
  });
});

describe('applyClockAction: the moves spec §4 allows', () => {
  it.each(['none', 'completed'] as const)(
    'clock-in from %s starts a new running entry at the given time',
    (status) => {
      expect(entryOf(applyClockAction(states[status], 'clock-in', at('08:02'), target))).toEqual({
        id: target.newEntryId,
        orgId: target.orgId,
        userId: target.userId,
        startTime: t('08:02'),
        endTime: null,
        breakIntervals: [],
        updatedAt: t('08:02'),
      });
    },
  );

  it('start-break while active opens a break on the running entry', () => {
    const next = entryOf(applyClockAction(states.active, 'start-break', at('10:00'), target));
    expect(next).toMatchObject({
      id: entryId,
      startTime: t('08:02'),
      endTime: null,
      breakIntervals: [{ startTime: t('10:00'), endTime: null }],
    });
    expect(clockStatusOf([next]).status).toBe('on_break');
  });

  it('end-break while on_break closes the running break', () => {
    const next = entryOf(applyClockAction(states.on_break, 'end-break', at('10:20'), target));
    expect(next.breakIntervals).toEqual([{ startTime: t('10:00'), endTime: t('10:20') }]);
    expect(clockStatusOf([next]).status).toBe('active');
  });

  it('clock-out while active closes the entry', () => {
    const next = entryOf(applyClockAction(states.active, 'clock-out', at('16:00'), target));
    expect(next).toMatchObject({ id: entryId, endTime: t('16:00'), updatedAt: t('16:00') });
    expect(clockStatusOf([next]).status).toBe('completed');
  });

  it('clock-out while on_break closes the break and the entry at the same instant', () => {
    const next = entryOf(applyClockAction(states.on_break, 'clock-out', at('10:30'), target));
    expect(next.endTime).toBe(t('10:30'));
    expect(next.breakIntervals).toEqual([{ startTime: t('10:00'), endTime: t('10:30') }]);
  });

  it('keeps earlier breaks when a second one starts', () => {
    const state = clockStatusOf([
      entry({ breakIntervals: [{ startTime: t('10:00'), endTime: t('10:15') }] }),
    ]);
    expect(
      entryOf(applyClockAction(state, 'start-break', at('13:00'), target)).breakIntervals,
    ).toEqual([
      { startTime: t('10:00'), endTime: t('10:15') },
      { startTime: t('13:00'), endTime: null },
    ]);
  });
});

describe('applyClockAction: impossible moves are refused', () => {
  const refusals: Array<[ClockStatus, ClockAction, string]> = [
    ['active', 'clock-in', clockMessages.alreadyClockedIn],
    ['on_break', 'clock-in', clockMessages.alreadyClockedIn],
    ['none', 'start-break', clockMessages.notClockedIn],
    ['completed', 'start-break', clockMessages.notClockedIn],
    ['on_break', 'start-break', clockMessages.alreadyOnBreak],
    ['none', 'end-break', clockMessages.notOnBreak],
    ['completed', 'end-break', clockMessages.notOnBreak],
    ['active', 'end-break', clockMessages.notOnBreak],
    ['none', 'clock-out', clockMessages.notClockedIn],
    ['completed', 'clock-out', clockMessages.notClockedIn],
  ];

  it.each(refusals)('from %s, %s is refused', (status, action, message) => {
    expect(applyClockAction(states[status], action, at('12:00'), target)).toEqual({
      ok: false,
      message,
    });
  });

  it('allows every other move: the table above is the whole list of refusals', () => {
    const statuses = Object.keys(states) as ClockStatus[];
    const allowed = statuses.flatMap((s) =>
      clockActions
        .filter((a) => !refusals.some(([rs, ra]) => rs === s && ra === a))
        .map((a) => [s, a] as const),
    );
    expect(allowed).toHaveLength(6);
    for (const [status, action] of allowed)
      expect(applyClockAction(states[status], action, at('12:00'), target).ok).toBe(true);
  });

  it('refuses a running status that has no entry rather than invent one', () => {
    expect(
      applyClockAction({ status: 'active', activeEntry: null }, 'clock-out', at('12:00'), target),
    ).toEqual({
      ok: false,
      message: clockMessages.notClockedIn,
    });
  });

  it('refuses a time that would put the entry out of order, with the entry rule’s message', () => {
    expect(applyClockAction(states.active, 'clock-out', at('08:00'), target)).toEqual({
      ok: false,
      message: timeEntryMessages.endsBeforeStart,
    });
    expect(applyClockAction(states.active, 'clock-out', at('08:02'), target)).toEqual({
      ok: false,
      message: timeEntryMessages.endsBeforeStart,
    });
    expect(applyClockAction(states.active, 'start-break', at('07:00'), target)).toEqual({
      ok: false,
      message: timeEntryMessages.breakOutside,
    });
    expect(applyClockAction(states.on_break, 'end-break', at('09:59'), target)).toEqual({
      ok: false,
      message: timeEntryMessages.breakEndsBeforeStart,
    });
    expect(applyClockAction(states.on_break, 'clock-out', at('09:00'), target)).toEqual({
      ok: false,
      message: timeEntryMessages.breakOutside,
    });
  });
});

describe('times recorded as given', () => {
  it('stores the time the action happened, not when it is applied (an offline move synced later)', () => {
    const clockedIn = entryOf(
      applyClockAction(states.none, 'clock-in', new Date('2026-11-23T08:02:00.000Z'), target),
    );
    expect(clockedIn.startTime).toBe('2026-11-23T08:02:00.000Z');
    expect(clockedIn.updatedAt).toBe('2026-11-23T08:02:00.000Z');
    const out = entryOf(
      applyClockAction(
        clockStatusOf([clockedIn]),
        'clock-out',
        new Date('2026-11-23T16:59:59.123Z'),
        target,
      ),
    );
    expect(out).toMatchObject({
      startTime: '2026-11-23T08:02:00.000Z',
      endTime: '2026-11-23T16:59:59.123Z',
      updatedAt: '2026-11-23T16:59:59.123Z',
    });
  });

  it('accepts any past time and up to five minutes of device clock ahead, no more', () => {
    const now = at('12:00');
    expect(clockTimeRefusal(at('08:02'), now)).toBeNull();
    expect(clockTimeRefusal(at('12:05'), now)).toBeNull();
    expect(clockTimeRefusal(new Date(at('12:05').getTime() + 1), now)).toBe(
      clockMessages.inTheFuture,
    );
  });
});

describe('runningEntryConflict', () => {
  it('refuses a second running entry, but not the running one itself, a closed one or a tombstone', () => {
    expect(runningEntryConflict(states.active, { id: target.newEntryId, endTime: null })).toBe(
      clockMessages.anotherEntryRunning,
    );
    expect(runningEntryConflict(states.on_break, { id: target.newEntryId, endTime: null })).toBe(
      clockMessages.anotherEntryRunning,
    );
    expect(runningEntryConflict(states.active, { id: entryId, endTime: null })).toBeNull();
    expect(
      runningEntryConflict(states.active, { id: target.newEntryId, endTime: t('09:00') }),
    ).toBeNull();
    expect(
      runningEntryConflict(states.active, { id: target.newEntryId, endTime: null, _deleted: true }),
    ).toBeNull();
    expect(
      runningEntryConflict(states.completed, { id: target.newEntryId, endTime: null }),
    ).toBeNull();
  });
});

describe('whoIsOnTheClock', () => {
  it('lists those clocked in or on a break, longest on the clock first, and no one else', () => {
    const on = whoIsOnTheClock([
      { ...entry({ id: 'a1', startTime: t('09:00') }), userId: 'ana' },
      {
        ...entry({
          id: 'b1',
          startTime: t('07:30'),
          breakIntervals: [{ startTime: t('10:00'), endTime: null }],
        }),
        userId: 'ben',
      },
      { ...entry({ id: 'c1', startTime: t('06:00'), endTime: t('07:00') }), userId: 'cy' },
      { ...entry({ id: 'd1', startTime: t('05:00'), _deleted: true }), userId: 'dee' },
      // Ana's finished entry from the morning does not hide the running one.
      { ...entry({ id: 'a0', startTime: t('06:00'), endTime: t('08:00') }), userId: 'ana' },
    ]);
    expect(on.map(({ userId, status, activeEntry }) => [userId, status, activeEntry.id])).toEqual([
      ['ben', 'on_break', 'b1'],
      ['ana', 'active', 'a1'],
    ]);
  });

  it('is empty when nobody is on the clock', () => {
    expect(whoIsOnTheClock([])).toEqual([]);
  });
});
