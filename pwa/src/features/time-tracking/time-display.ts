import type { CurrentUser } from '@platform/schema/me/me.zod';
import type { TimeEntryDoc } from '@platform/schema/time-tracking/time-entry.zod';

type EntryTimes = Pick<TimeEntryDoc, 'startTime' | 'endTime' | 'breakIntervals'>;

/** spec §3 Org attributes.timezone: times are shown in the organisation's zone (else the device's). */
export function timeZoneOf(user: CurrentUser): string | undefined {
  return user.org?.timezone ?? undefined;
}

/** HH:MM on a 24-hour clock. */
export function formatClockTime(iso: string, timeZone: string | undefined): string {
  return new Intl.DateTimeFormat(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    ...(timeZone ? { timeZone } : {}),
  }).format(new Date(iso));
}

/** 2:05:09 for the running timer. */
export function formatTimer(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(seconds / 3600)}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
}

/** 2h 05m for a list. */
export function formatDuration(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

/** Milliseconds of [start, end) after `since`; a running interval ends at `now`. */
function spanMs(start: string, end: string | null, now: number, since: number): number {
  const to = end === null ? now : Date.parse(end);
  return Math.max(0, to - Math.max(Date.parse(start), since));
}

/** Time worked in one entry after `since`, breaks subtracted; a running entry or break counts up to `now`. */
export function workedMs(entry: EntryTimes, now: Date, since = -Infinity): number {
  const at = now.getTime();
  const breaks = entry.breakIntervals.reduce(
    (sum, interval) => sum + spanMs(interval.startTime, interval.endTime, at, since),
    0,
  );
  return Math.max(0, spanMs(entry.startTime, entry.endTime, at, since) - breaks);
}

/** Midnight today on this device, and the same time tomorrow. */
export function todayRange(now = new Date()): { from: Date; to: Date } {
  const from = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  return { from, to: new Date(now.getTime() + 24 * 3_600_000) };
}
