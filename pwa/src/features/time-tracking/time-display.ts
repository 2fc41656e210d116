import type { CurrentUser } from '@platform/schema/me/me.zod';
import { orgFormat } from '@platform/schema/organizations/org-format';
import { orgTimeZone, type DayKey } from '@platform/schema/time-tracking/org-calendar';
import type { EntryTimes } from '@platform/schema/time-tracking/time-totals.rules';

export { formatDuration, formatTimer } from '@platform/schema/organizations/org-format';

/**
 * spec §3 Org attributes.timezone: times are shown, and days and weeks counted, in the
 * organisation's zone — never the device's, so a manager abroad sees the same days as payroll.
 * How they are written is the one organisation format (schema org-format.ts).
 */
export function timeZoneOf(user: CurrentUser): string {
  return orgTimeZone(user.org?.timezone);
}

/** 3:31 PM or 15:31, as the organisation writes it. */
export function formatClockTime(iso: string, timeZone: string): string {
  return orgFormat(timeZone).time(iso);
}

/** Monday, November 23. */
export function formatDay(day: DayKey, timeZone: string): string {
  return orgFormat(timeZone).day(day);
}

/** Nov 23 – 29, 2026: a week's dates for its heading. */
export function formatDayRange(first: DayKey, last: DayKey, timeZone: string): string {
  return orgFormat(timeZone).dayRange(first, last);
}

/** A time within a day's list, with the weekday when it falls on another day (midnight). */
export function formatTimeOnDay(iso: string, day: DayKey, timeZone: string): string {
  return orgFormat(timeZone).timeOnDay(iso, day);
}

/** 12:00 PM–12:30 PM, 3:00 PM–now; None without breaks. */
export function formatBreaks(entry: EntryTimes, timeZone: string): string {
  if (entry.breakIntervals.length === 0) return 'None';
  const { time } = orgFormat(timeZone);
  return entry.breakIntervals
    .map(
      (interval) =>
        `${time(interval.startTime)}–${interval.endTime ? time(interval.endTime) : 'now'}`,
    )
    .join(', ');
}
