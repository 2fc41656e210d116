import { MAX_CLOCK_AHEAD_MS } from '../sync/change-stamp.rules.ts';
import { timeEntryRuleViolation } from './time-entry.rules.ts';
import type { TimeEntryDoc } from './time-entry.zod.ts';

/** spec §4 Time tracking: none or completed → Clock In → active ⇄ on_break; active/on_break → Clock Out → completed. */
export const clockStatuses = ['none', 'active', 'on_break', 'completed'] as const;
export type ClockStatus = (typeof clockStatuses)[number];
export const clockActions = ['clock-in', 'clock-out', 'start-break', 'end-break'] as const;
export type ClockAction = (typeof clockActions)[number];

type BreakInterval = TimeEntryDoc['breakIntervals'][number];
/** The running entry, as spec §3 names it: startTime and breakIntervals (and its id, to act on it). */
export type ActiveEntry = { id: string; startTime: string; breakIntervals: BreakInterval[] };
export type ClockState = { status: ClockStatus; activeEntry: ActiveEntry | null };

/** What clockStatusOf reads: one person's entries, tombstones included or not. */
export type ClockEntry = Pick<TimeEntryDoc, 'id' | 'startTime' | 'endTime' | 'breakIntervals'> & {
  _deleted?: boolean;
};

export const clockMessages = {
  alreadyClockedIn: 'You are already clocked in.',
  notClockedIn: 'You are not clocked in.',
  alreadyOnBreak: 'You are already on a break.',
  notOnBreak: 'You are not on a break.',
  inTheFuture: 'That time is in the future. Check the clock on your device.',
  anotherEntryRunning: 'This person already has a time entry running; clock out first.',
} as const;

/**
 * An offline device says when a move happened; more than this ahead of the server is a wrong
 * clock. One allowance for every time a device sets (change-stamp.rules.ts).
 */
export { MAX_CLOCK_AHEAD_MS };

/**
 * One person's clock state from their entries. Any entry still running makes them active (or
 * on_break when its last break is still running) — if two devices left two running entries, the
 * latest started is the one acted on. Otherwise completed when they have any entry, else none.
 */
export function clockStatusOf(entries: readonly ClockEntry[]): ClockState {
  const live = entries.filter((entry) => !entry._deleted);
  const running = live
    .filter((entry) => entry.endTime === null)
    .sort((a, b) => Date.parse(b.startTime) - Date.parse(a.startTime))[0];
  if (!running) return { status: live.length ? 'completed' : 'none', activeEntry: null };
  const activeEntry = {
    id: running.id,
    startTime: running.startTime,
    breakIntervals: running.breakIntervals,
  };
  return {
    status: running.breakIntervals.at(-1)?.endTime === null ? 'on_break' : 'active',
    activeEntry,
  };
}

export type ClockMove = { ok: true; entry: TimeEntryDoc } | { ok: false; message: string };
/** Whose clock it is, and the id a clock-in gives its new entry (made by the caller: this module does no I/O). */
export type ClockTarget = { orgId: string; userId: string; newEntryId: string };

/**
 * Applies one clock action at `at` — the time it happened, which an offline device reports
 * later — and returns the entry to store, or why the move is impossible. A clock-out during a
 * break ends the break at the same instant. A time that would break an entry rule (a clock-out
 * before the clock-in, say) is refused with that rule's message.
 */
export function applyClockAction(
  state: ClockState,
  action: ClockAction,
  at: Date,
  target: ClockTarget,
): ClockMove {
  const time = at.toISOString();
  const refusal = refusalOf(state.status, action);
  if (refusal) return { ok: false, message: refusal };
  const { orgId, userId } = target;
  if (action === 'clock-in') {
    return {
      ok: true,
      entry: {
        id: target.newEntryId,
        orgId,
        userId,
        startTime: time,
        endTime: null,
        breakIntervals: [],
        updatedAt: time,
      },
    };
  }
  // A running status without its entry is not a state clockStatusOf produces; refuse rather than guess.
  if (!state.activeEntry) return { ok: false, message: clockMessages.notClockedIn };
  const { id, startTime, breakIntervals } = state.activeEntry;
  const closedBreaks = breakIntervals.map((interval) =>
    interval.endTime === null ? { ...interval, endTime: time } : interval,
  );
  const entry: TimeEntryDoc = {
    id,
    orgId,
    userId,
    startTime,
    endTime: action === 'clock-out' ? time : null,
    breakIntervals:
      action === 'start-break'
        ? [...breakIntervals, { startTime: time, endTime: null }]
        : closedBreaks,
    updatedAt: time,
  };
  const violation = timeEntryRuleViolation(entry);
  return violation ? { ok: false, message: violation } : { ok: true, entry };
}

function refusalOf(status: ClockStatus, action: ClockAction): string | null {
  const running = status === 'active' || status === 'on_break';
  switch (action) {
    case 'clock-in':
      return running ? clockMessages.alreadyClockedIn : null;
    case 'clock-out':
      return running ? null : clockMessages.notClockedIn;
    case 'start-break':
      return status === 'active'
        ? null
        : running
          ? clockMessages.alreadyOnBreak
          : clockMessages.notClockedIn;
    case 'end-break':
      return status === 'on_break' ? null : clockMessages.notOnBreak;
  }
}

/** A reported time may lie in the past (offline), but not ahead of the server by more than a little clock drift. */
export function clockTimeRefusal(at: Date, now: Date): string | null {
  return at.getTime() - now.getTime() > MAX_CLOCK_AHEAD_MS ? clockMessages.inTheFuture : null;
}

/**
 * A person has at most one running entry through the API: a manual entry left running, or an
 * entry reopened, while another runs would be a second clock-in.
 */
export function runningEntryConflict(
  state: ClockState,
  next: Pick<TimeEntryDoc, 'id' | 'endTime'> & { _deleted?: boolean },
): string | null {
  if (next._deleted || next.endTime !== null || !state.activeEntry) return null;
  return state.activeEntry.id === next.id ? null : clockMessages.anotherEntryRunning;
}

/** Someone whose entry is running now: clocked in, or on a break inside it. */
export type OnTheClock = {
  userId: string;
  status: 'active' | 'on_break';
  activeEntry: ActiveEntry;
};

/**
 * Who is on the clock now (managers' time tracking): each person's state from their entries
 * (clockStatusOf), those clocked in or on a break, longest on the clock first.
 */
export function whoIsOnTheClock(
  entries: ReadonlyArray<ClockEntry & { userId: string }>,
): OnTheClock[] {
  const byPerson = new Map<string, Array<ClockEntry & { userId: string }>>();
  for (const entry of entries) {
    const own = byPerson.get(entry.userId) ?? [];
    own.push(entry);
    byPerson.set(entry.userId, own);
  }
  const on: OnTheClock[] = [];
  for (const [userId, own] of byPerson) {
    const { status, activeEntry } = clockStatusOf(own);
    if ((status === 'active' || status === 'on_break') && activeEntry) {
      on.push({ userId, status, activeEntry });
    }
  }
  return on.sort(
    (a, b) => Date.parse(a.activeEntry.startTime) - Date.parse(b.activeEntry.startTime),
  );
}
