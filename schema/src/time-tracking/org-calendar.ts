import { DEFAULT_ORG_TIMEZONE } from '../organizations/organizations.zod.ts';
import { isValidTimeZone } from '../organizations/timezone.rules.ts';

/**
 * The organisation's calendar: its days begin at midnight in its time zone and its weeks on
 * Monday, whatever zone the device or server runs in. Times stay UTC everywhere else; only
 * these helpers turn them into the organisation's days and wall-clock times.
 *
 * Written on Intl alone (decision 0010): no date library is installed, and the runtime's own
 * time-zone data is what both the browser and Node already carry — about 100 lines against a
 * dependency on both sides. Offsets are cached per quarter of an hour (see offsetAt): the staff
 * calendar asks for the day of thousands of class times at once.
 */

/** A calendar day in the organisation's zone, 'YYYY-MM-DD'. */
export type DayKey = string;
/** [from, to) in epoch milliseconds. */
export type Range = { from: number; to: number };

const DAY_MS = 86_400_000;
const dayKeyPattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const wallInputPattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** The zone time tracking uses: the organisation's, else the default every new organisation gets. */
export function orgTimeZone(timeZone: string | null | undefined): string {
  return timeZone && isValidTimeZone(timeZone) ? timeZone : DEFAULT_ORG_TIMEZONE;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

type Wall = {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
};

/**
 * Date.UTC for every year: Date.UTC itself takes years 0–99 for 1900–1999, so a typed 0025
 * became 1925 (decision 0040).
 */
function utc(year: number, monthIndex: number, day: number, hour = 0, minute = 0, second = 0) {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  return date.setUTCHours(hour, minute, second);
}

/** The wall-clock reading in `timeZone` at instant `ms`, as Intl reads it. */
function wallFromIntl(ms: number, timeZone: string): Wall {
  const wall: Wall = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const part of formatterFor(timeZone).formatToParts(ms)) {
    if (part.type in wall) wall[part.type as keyof Wall] = Number(part.value);
  }
  return wall;
}

function offsetFromIntl(ms: number, timeZone: string): number {
  const w = wallFromIntl(ms, timeZone);
  const whole = Math.floor(ms / 1000) * 1000;
  return utc(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - whole;
}

/**
 * Offsets known per zone and quarter of an hour (UTC): a calendar of a year of class times asks
 * for thousands of days, and `formatToParts` is the slow part. A quarter is cached only when its
 * first and last second have the same offset — no zone changes its clocks twice within fifteen
 * minutes — so one with a change inside is always asked of Intl.
 */
const QUARTER_MS = 15 * 60_000;
const CACHED_FROM = Date.UTC(1900, 0, 1);
const CACHED_TO = Date.UTC(2200, 0, 1);
const offsets = new Map<string, Map<number, number>>();

/** The zone's offset from UTC at `ms` (local minus UTC), in milliseconds. */
function offsetAt(ms: number, timeZone: string): number {
  if (!(ms >= CACHED_FROM && ms < CACHED_TO)) return offsetFromIntl(ms, timeZone);
  const quarter = Math.floor(ms / QUARTER_MS);
  let zone = offsets.get(timeZone);
  if (!zone) offsets.set(timeZone, (zone = new Map()));
  const known = zone.get(quarter);
  if (known !== undefined) return known;
  const start = quarter * QUARTER_MS;
  const first = offsetFromIntl(start, timeZone);
  if (offsetFromIntl(start + QUARTER_MS - 1000, timeZone) !== first)
    return offsetFromIntl(ms, timeZone);
  if (zone.size >= 100_000) zone.clear();
  zone.set(quarter, first);
  return first;
}

/** The wall-clock reading in `timeZone` at instant `ms`. */
function wallAt(ms: number, timeZone: string): Wall {
  if (!(ms >= CACHED_FROM && ms < CACHED_TO)) return wallFromIntl(ms, timeZone);
  const shifted = new Date(Math.floor(ms / 1000) * 1000 + offsetAt(ms, timeZone));
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
    second: shifted.getUTCSeconds(),
  };
}

/**
 * The instant a wall-clock time names (`wallMs`: that reading as if it were UTC). Two passes
 * settle the offset; a reading repeated when clocks go back gives the first, one skipped when
 * they go forward lands an hour away — startOfDay corrects for that at midnight.
 */
function instantOfWall(wallMs: number, timeZone: string): number {
  const first = wallMs - offsetAt(wallMs, timeZone);
  return wallMs - offsetAt(first, timeZone);
}

/**
 * The instant of a wall-clock time (`wallMs`: that reading as if it were UTC) as RFC 5545
 * §3.3.5 reads a local time: a reading repeated when clocks go back is the first; one skipped
 * when they go forward is read with the offset from before the gap, so 02:30 on New York's
 * spring-forward night is 03:30 — a class keeps its place in the day instead of moving back.
 */
export function instantOfWallTime(wallMs: number, timeZone: string): number {
  const candidate = instantOfWall(wallMs, timeZone);
  if (candidate + offsetAt(candidate, timeZone) === wallMs) return candidate;
  // In a gap: the offsets either side of it (no zone changes twice within twelve hours); the
  // smaller one is from before the clocks went forward.
  const before = Math.min(
    offsetAt(candidate - 6 * 3_600_000, timeZone),
    offsetAt(candidate + 6 * 3_600_000, timeZone),
  );
  return wallMs - before;
}

/** The wall-clock reading at `ms` in `timeZone`, as if it were UTC (the inverse of the above). */
export function wallMsOf(ms: number, timeZone: string): number {
  return Math.floor(ms / 1000) * 1000 + offsetAt(ms, timeZone);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function dayKeyOf(ms: number, timeZone: string): DayKey {
  const w = wallAt(ms, timeZone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
}

function parseDayKey(day: DayKey): [number, number, number] {
  const match = dayKeyPattern.exec(day);
  if (!match) throw new RangeError(`Not a day: ${day}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

/** Calendar arithmetic on day keys (no zone involved: a day is a day). */
export function addDays(day: DayKey, days: number): DayKey {
  const [y, m, d] = parseDayKey(day);
  const date = new Date(utc(y, m - 1, d + days));
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** The Monday of the week `day` falls in (weeks start on Monday). */
export function mondayOf(day: DayKey): DayKey {
  const [y, m, d] = parseDayKey(day);
  const weekday = new Date(utc(y, m - 1, d)).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

/** The first instant of `day` in `timeZone` — midnight, or the end of a gap that swallowed it. */
export function startOfDay(day: DayKey, timeZone: string): number {
  const [y, m, d] = parseDayKey(day);
  let at = instantOfWall(utc(y, m - 1, d), timeZone);
  if (dayKeyOf(at, timeZone) < day) {
    // Clocks jumped over midnight (some zones change at 00:00): the day begins at the jump.
    let low = at;
    let high = at + 4 * 3_600_000;
    while (high - low > 1) {
      const mid = Math.floor((low + high) / 2);
      if (dayKeyOf(mid, timeZone) < day) low = mid;
      else high = mid;
    }
    at = high;
  }
  return at;
}

/** [midnight, next midnight): 24 hours, or 23 and 25 on the days clocks change. */
export function dayRange(day: DayKey, timeZone: string): Range {
  return { from: startOfDay(day, timeZone), to: startOfDay(addDays(day, 1), timeZone) };
}

/** The seven days from `monday`. */
export function weekDays(monday: DayKey): DayKey[] {
  return Array.from({ length: 7 }, (_, i) => addDays(monday, i));
}

export function weekRange(monday: DayKey, timeZone: string): Range {
  return { from: startOfDay(monday, timeZone), to: startOfDay(addDays(monday, 7), timeZone) };
}

/** Whole days from `from` to `to` (keys), for limits such as an export's length. */
export function daysBetween(from: DayKey, to: DayKey): number {
  const [y1, m1, d1] = parseDayKey(from);
  const [y2, m2, d2] = parseDayKey(to);
  return Math.round((utc(y2, m2 - 1, d2) - utc(y1, m1 - 1, d1)) / DAY_MS);
}

export function isDayKey(value: string): boolean {
  const match = dayKeyPattern.exec(value);
  return match !== null && addDays(value, 0) === value;
}

/** 'HH:MM' on a 24-hour clock in `timeZone`. */
export function wallTimeOf(ms: number, timeZone: string): string {
  const w = wallAt(ms, timeZone);
  return `${pad(w.hour)}:${pad(w.minute)}`;
}

/** 'YYYY-MM-DDTHH:MM', the value of an `<input type="datetime-local">` showing `iso` in `timeZone`. */
export function wallInputOf(iso: string, timeZone: string): string {
  const ms = Date.parse(iso);
  return `${dayKeyOf(ms, timeZone)}T${wallTimeOf(ms, timeZone)}`;
}

/** The UTC instant (ISO, milliseconds) of a 'YYYY-MM-DDTHH:MM' wall-clock time in `timeZone`; null if malformed. */
export function instantOfWallInput(value: string, timeZone: string): string | null {
  const match = wallInputPattern.exec(value);
  if (!match) return null;
  const [y, mo, d, h, mi] = match.slice(1).map(Number) as [number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59) return null;
  const wall = utc(y, mo - 1, d, h, mi);
  if (new Date(wall).getUTCDate() !== d) return null;
  return new Date(instantOfWall(wall, timeZone)).toISOString();
}
