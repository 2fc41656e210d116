import { dayKeyOf, type DayKey } from '../time-tracking/org-calendar.ts';
import { orgRegion, type OrgRegion } from './org-region.rules.ts';

/**
 * The one way times, days and durations are written on every screen (issue 14: '15:28',
 * '03:28 PM' and '8:24:34 PM' no longer sit on neighbouring screens). Everything is in the
 * organisation's time zone and locale (org-region.rules.ts), never the device's: a manager
 * abroad and the front-desk kiosk read the same clock.
 *
 * - a time of day: '3:31 PM' (US), '15:31' (GB, DE) — hours and minutes, never seconds;
 * - a day: 'Monday, November 23'; a date: 'Nov 23, 2026'; both: 'Nov 23, 2026, 3:31 PM';
 * - a duration: '8h 05m'; a running timer: '2:05:09' (the one place seconds tick).
 */
export type OrgFormat = {
  region: OrgRegion;
  time: (instant: string | number) => string;
  /** A time within a day's list, with the weekday when it falls on another day. */
  timeOnDay: (instant: string | number, day: DayKey) => string;
  day: (day: DayKey) => string;
  /** 'Mon 23': a day as a column heading. */
  shortDay: (day: DayKey) => string;
  dayRange: (first: DayKey, last: DayKey) => string;
  date: (day: DayKey) => string;
  /** The date an instant falls on in the organisation's zone: 'Nov 23, 2026'. */
  dateOf: (instant: string | number) => string;
  dateTime: (instant: string | number) => string;
  duration: (ms: number) => string;
  timer: (ms: number) => string;
};

// A day key names a calendar day, not an instant: format it as that date in UTC.
const dateOfKey = (day: DayKey) => new Date(`${day}T12:00:00.000Z`);
const toDate = (instant: string | number) => new Date(instant);
const pad = (n: number) => String(n).padStart(2, '0');

/** 8h 05m: whole minutes, never negative. */
export function formatDuration(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  return `${Math.floor(minutes / 60)}h ${pad(minutes % 60)}m`;
}

/** 2:05:09 for a running timer. */
export function formatTimer(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 3600)}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
}

const formats = new Map<string, OrgFormat>();

/** The formats of an organisation with this time zone (null: the default organisation's). */
export function orgFormat(timeZone: string | null | undefined): OrgFormat {
  const region = orgRegion(timeZone);
  const known = formats.get(region.timeZone);
  if (known) return known;
  const { locale, hourCycle } = region;
  const zone = region.timeZone;
  // 24-hour clocks pad the hour (09:05), 12-hour ones do not (9:05 AM).
  const hour = hourCycle === 'h23' ? '2-digit' : 'numeric';
  const clock = { hour, minute: '2-digit', hourCycle } as const;
  const time = new Intl.DateTimeFormat(locale, { ...clock, timeZone: zone });
  const weekday = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: zone });
  const day = new Intl.DateTimeFormat(locale, {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
  // 'Mon 23' in every English locale (en-US alone would write '23 Mon').
  const weekdayOfKey = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
  const dateOptions = { year: 'numeric', month: 'short', day: 'numeric' } as const;
  const date = new Intl.DateTimeFormat(locale, { ...dateOptions, timeZone: 'UTC' });
  const dateTime = new Intl.DateTimeFormat(locale, { ...dateOptions, ...clock, timeZone: zone });
  const format: OrgFormat = {
    region,
    time: (instant) => time.format(toDate(instant)),
    timeOnDay: (instant, onDay) => {
      const at = toDate(instant);
      const text = time.format(at);
      return dayKeyOf(at.getTime(), zone) === onDay ? text : `${weekday.format(at)} ${text}`;
    },
    day: (key) => day.format(dateOfKey(key)),
    shortDay: (key) => `${weekdayOfKey.format(dateOfKey(key))} ${Number(key.slice(8, 10))}`,
    dayRange: (first, last) => date.formatRange(dateOfKey(first), dateOfKey(last)),
    date: (key) => date.format(dateOfKey(key)),
    dateOf: (instant) => date.format(dateOfKey(dayKeyOf(toDate(instant).getTime(), zone))),
    dateTime: (instant) => dateTime.format(toDate(instant)),
    duration: formatDuration,
    timer: formatTimer,
  };
  formats.set(zone, format);
  return format;
}
