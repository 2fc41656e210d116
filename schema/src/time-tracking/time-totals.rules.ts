import { dayRange, weekDays, weekRange, type DayKey, type Range } from './org-calendar.ts';
import type { TimeEntryDoc } from './time-entry.zod.ts';

/** What a total reads of an entry. */
export type EntryTimes = Pick<TimeEntryDoc, 'startTime' | 'endTime' | 'breakIntervals'>;

/** Milliseconds of [start, end) inside [from, to); a running interval (no end) runs to `now`. */
function overlapMs(
  start: number,
  end: number | null,
  now: number,
  from: number,
  to: number,
): number {
  const stop = Math.min(end ?? now, to);
  return Math.max(0, stop - Math.max(start, from));
}

/**
 * Time worked in `entry` inside [from, to), breaks subtracted — the share of an entry that
 * crosses midnight falls on each day. A running entry, or a running break, counts up to `now`.
 */
export function workedMsWithin(
  entry: EntryTimes,
  now: number,
  from = -Infinity,
  to = Infinity,
): number {
  const start = Date.parse(entry.startTime);
  const end = entry.endTime === null ? null : Date.parse(entry.endTime);
  // Breaks lie inside the entry (time-entry.rules), so clipping them to the window is enough.
  const windowFrom = Math.max(from, start);
  const windowTo = Math.min(to, end ?? now);
  const breaks = entry.breakIntervals.reduce((sum, interval) => {
    const breakEnd = interval.endTime === null ? null : Date.parse(interval.endTime);
    return sum + overlapMs(Date.parse(interval.startTime), breakEnd, now, windowFrom, windowTo);
  }, 0);
  return Math.max(0, overlapMs(start, end, now, from, to) - breaks);
}

/** Whether the entry has any time inside [from, to) (a running one reaches `now`). */
export function entryTouches(entry: EntryTimes, range: Range, now: number): boolean {
  const start = Date.parse(entry.startTime);
  const end = entry.endTime === null ? Math.max(now, start + 1) : Date.parse(entry.endTime);
  return start < range.to && end > range.from;
}

export type DayTotal<E extends EntryTimes> = {
  day: DayKey;
  range: Range;
  /** Entries with time on this day, earliest first; one crossing midnight is on both days. */
  entries: E[];
  workedMs: number;
};
export type WeekTotals<E extends EntryTimes> = {
  monday: DayKey;
  range: Range;
  days: Array<DayTotal<E>>;
  totalMs: number;
};

/** Totals of the organisation's days `days` (in `timeZone`), each entry split at midnight. */
export function totalsByDay<E extends EntryTimes>(
  entries: readonly E[],
  days: readonly DayKey[],
  timeZone: string,
  now: number,
): Array<DayTotal<E>> {
  const sorted = [...entries].sort((a, b) => Date.parse(a.startTime) - Date.parse(b.startTime));
  return days.map((day) => {
    const range = dayRange(day, timeZone);
    const onDay = sorted.filter((entry) => entryTouches(entry, range, now));
    const workedMs = onDay.reduce(
      (sum, entry) => sum + workedMsWithin(entry, now, range.from, range.to),
      0,
    );
    return { day, range, entries: onDay, workedMs };
  });
}

/** One week from `monday`: the seven day totals and the week's, which is their sum. */
export function weekTotals<E extends EntryTimes>(
  entries: readonly E[],
  monday: DayKey,
  timeZone: string,
  now: number,
): WeekTotals<E> {
  const days = totalsByDay(entries, weekDays(monday), timeZone, now);
  return {
    monday,
    range: weekRange(monday, timeZone),
    days,
    totalMs: days.reduce((sum, day) => sum + day.workedMs, 0),
  };
}

/** Time per person inside `range` (the team view's chart): everyone in `userIds`, in that order, then anyone else with entries. */
export function totalsByPerson(
  entries: ReadonlyArray<EntryTimes & { userId: string }>,
  userIds: readonly string[],
  range: Range,
  now: number,
): Array<{ userId: string; workedMs: number }> {
  const totals = new Map(userIds.map((id) => [id, 0]));
  for (const entry of entries) {
    totals.set(
      entry.userId,
      (totals.get(entry.userId) ?? 0) + workedMsWithin(entry, now, range.from, range.to),
    );
  }
  return [...totals].map(([userId, workedMs]) => ({ userId, workedMs }));
}

export type PersonWeekRow = { userId: string; days: number[]; totalMs: number };

/**
 * The team's week as a grid (managers): one row per person — everyone in `userIds`, in that
 * order, then anyone else with time that week — and one cell per day of `days` (the
 * organisation's days in `timeZone`), each entry split at midnight, a running one counted up to
 * `now`. Each row's total is the sum of its cells.
 */
export function totalsByPersonAndDay(
  entries: ReadonlyArray<EntryTimes & { userId: string }>,
  userIds: readonly string[],
  days: readonly DayKey[],
  timeZone: string,
  now: number,
): PersonWeekRow[] {
  const ranges = days.map((day) => dayRange(day, timeZone));
  const rows = new Map<string, number[]>(userIds.map((id) => [id, ranges.map(() => 0)]));
  for (const entry of entries) {
    const cells = ranges.map((range) => workedMsWithin(entry, now, range.from, range.to));
    let row = rows.get(entry.userId);
    if (!row) {
      if (cells.every((ms) => ms === 0)) continue;
      row = ranges.map(() => 0);
      rows.set(entry.userId, row);
    }
    const sums = row;
    cells.forEach((ms, i) => (sums[i] = (sums[i] ?? 0) + ms));
  }
  return [...rows].map(([userId, cells]) => ({
    userId,
    days: cells,
    totalMs: cells.reduce((sum, ms) => sum + ms, 0),
  }));
}
