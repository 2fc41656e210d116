import type { CurrentUser } from '@platform/schema/me/me.zod';
import { dayKeyOf, orgTimeZone, type DayKey } from '@platform/schema/time-tracking/org-calendar';
import type { EntryTimes } from '@platform/schema/time-tracking/time-totals.rules';

/**
 * spec §3 Org attributes.timezone: times are shown, and days and weeks counted, in the
 * organisation's zone — never the device's, so a manager abroad sees the same days as payroll.
 */
export function timeZoneOf(user: CurrentUser): string {
  return orgTimeZone(user.org?.timezone);
}

/** HH:MM on a 24-hour clock. */
export function formatClockTime(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
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

// A day key names a calendar day, not an instant: format it as that date in UTC.
const dateOfKey = (day: DayKey) => new Date(`${day}T12:00:00.000Z`);

/** Monday, November 23 (in the device's language). */
export function formatDay(day: DayKey): string {
  return new Intl.DateTimeFormat(undefined, {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(dateOfKey(day));
}

/** Nov 23 – 29, 2026: a week's dates for its heading. */
export function formatDayRange(first: DayKey, last: DayKey): string {
  return new Intl.DateTimeFormat(undefined, {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  }).formatRange(dateOfKey(first), dateOfKey(last));
}

/** A time within a day's list: HH:MM, with the weekday when it falls on another day (midnight). */
export function formatTimeOnDay(iso: string, day: DayKey, timeZone: string): string {
  const time = formatClockTime(iso, timeZone);
  if (dayKeyOf(Date.parse(iso), timeZone) === day) return time;
  const weekday = new Intl.DateTimeFormat(undefined, { weekday: 'short', timeZone }).format(
    new Date(iso),
  );
  return `${weekday} ${time}`;
}

/** 12:00–12:30, 15:00–now; None without breaks. */
export function formatBreaks(entry: EntryTimes, timeZone: string): string {
  if (entry.breakIntervals.length === 0) return 'None';
  return entry.breakIntervals
    .map((interval) => {
      const end = interval.endTime ? formatClockTime(interval.endTime, timeZone) : 'now';
      return `${formatClockTime(interval.startTime, timeZone)}–${end}`;
    })
    .join(', ');
}
