import { RRule, type Weekday } from './rrule-interop.ts';
import { z } from 'zod';
import {
  instantOfWallTime,
  isDayKey,
  wallMsOf,
  type DayKey,
  type Range,
} from '../time-tracking/org-calendar.ts';

/**
 * Recurring classes and events (issue 16): what staff choose — weekly on chosen days, every N
 * weeks, until a day or N times — kept as an RFC 5545 RRULE line, and expanded into
 * occurrences in the organisation's time zone by `rrule` (the library does the rule; this
 * module does the time zone).
 *
 * The rule is expanded in *floating* time: every date `rrule` sees and returns carries the
 * organisation's wall-clock reading in its UTC fields. Each occurrence's wall time is then
 * turned into an instant in the zone (`instantOfWallTime`, RFC 5545 §3.3.5), so an 18:00 class
 * stays at 18:00 across daylight-saving changes — its instant moves by the hour instead.
 * (`rrule`'s own `tzid` support converts through the runtime's local zone, which differs
 * between a server in UTC and a phone in Auckland.)
 */

export const weekdayKeys = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type WeekdayKey = (typeof weekdayKeys)[number];

const weekdays: Record<WeekdayKey, Weekday> = {
  MO: RRule.MO,
  TU: RRule.TU,
  WE: RRule.WE,
  TH: RRule.TH,
  FR: RRule.FR,
  SA: RRule.SA,
  SU: RRule.SU,
};

export const recurrenceMessages = {
  weekdays: 'Choose at least one day of the week.',
  interval: 'Repeat every 1 to 52 weeks.',
  until: 'Enter the last day as a date.',
  count: 'Repeat 1 to 500 times.',
} as const;

/** The most occurrences one series may have, and one expansion may return. */
export const MAX_OCCURRENCES = 500;

export const recurrenceSchema = z.object({
  weekdays: z
    .array(z.enum(weekdayKeys))
    .min(1, recurrenceMessages.weekdays)
    .max(7)
    .refine((days) => new Set(days).size === days.length, recurrenceMessages.weekdays),
  intervalWeeks: z
    .number()
    .int(recurrenceMessages.interval)
    .min(1, recurrenceMessages.interval)
    .max(52, recurrenceMessages.interval),
  end: z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('until'),
      until: z.string().refine(isDayKey, recurrenceMessages.until),
    }),
    z.object({
      kind: z.literal('count'),
      count: z
        .number()
        .int(recurrenceMessages.count)
        .min(1, recurrenceMessages.count)
        .max(MAX_OCCURRENCES, recurrenceMessages.count),
    }),
  ]),
});
export type Recurrence = z.infer<typeof recurrenceSchema>;

const wallPattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** 'YYYY-MM-DDTHH:MM' (the organisation's wall clock) as a floating date; null if malformed. */
function floatingOf(wall: string): Date | null {
  const match = wallPattern.exec(wall);
  if (!match) return null;
  const [y, mo, d, h, mi] = match.slice(1).map(Number) as [number, number, number, number, number];
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi));
  if (date.getUTCDate() !== d || date.getUTCMonth() !== mo - 1 || h > 23 || mi > 59) return null;
  return date;
}

/** The last moment of `day` in floating time: UNTIL includes the whole last day. */
function endOfFloatingDay(day: DayKey): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d, 23, 59, 59));
}

/** The RRULE line of a recurrence: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;COUNT=10'. */
export function toRRule(recurrence: Recurrence): string {
  const rule = new RRule({
    freq: RRule.WEEKLY,
    interval: recurrence.intervalWeeks,
    byweekday: recurrence.weekdays.map((day) => weekdays[day]),
    ...(recurrence.end.kind === 'count'
      ? { count: recurrence.end.count }
      : { until: endOfFloatingDay(recurrence.end.until) }),
  });
  return rule.toString().replace(/^RRULE:/, '');
}

/** The choices a stored RRULE line was made from (to edit a series); null if it is not one. */
export function fromRRule(line: string): Recurrence | null {
  let options: Partial<ReturnType<typeof RRule.parseString>>;
  try {
    options = RRule.parseString(line);
  } catch {
    return null;
  }
  if (options.freq !== RRule.WEEKLY) return null;
  const byweekday = Array.isArray(options.byweekday)
    ? options.byweekday
    : options.byweekday != null
      ? [options.byweekday]
      : [];
  const days = byweekday.map((day) =>
    typeof day === 'string' ? day : weekdayKeys[typeof day === 'number' ? day : day.weekday],
  );
  const until = options.until ? options.until.toISOString().slice(0, 10) : null;
  const parsed = recurrenceSchema.safeParse({
    weekdays: days,
    intervalWeeks: options.interval ?? 1,
    end: options.count ? { kind: 'count', count: options.count } : { kind: 'until', until },
  });
  return parsed.success ? parsed.data : null;
}

export type Series = {
  /** The first occurrence's start, 'YYYY-MM-DDTHH:MM' on the organisation's wall clock. */
  firstStart: string;
  durationMinutes: number;
  /** The RRULE line; null for a one-off. */
  rrule: string | null;
  timeZone: string;
  /** Days (as the rule gave them) whose occurrence was cancelled or moved. */
  exceptDays?: readonly DayKey[];
};

export type Occurrence = {
  /** The occurrence's day as the rule gave it, its key among the series' occurrences. */
  day: DayKey;
  start: number;
  end: number;
};

/**
 * The occurrences of a series that overlap `window` ([from, to) in epoch ms), in order, at most
 * MAX_OCCURRENCES. A malformed start or rule gives none.
 */
export function expandOccurrences(series: Series, window: Range): Occurrence[] {
  const dtstart = floatingOf(series.firstStart);
  if (!dtstart || window.to <= window.from) return [];
  const duration = series.durationMinutes * 60_000;
  const except = new Set(series.exceptDays ?? []);
  const toOccurrence = (floating: Date): Occurrence => {
    const start = instantOfWallTime(floating.getTime(), series.timeZone);
    return { day: floating.toISOString().slice(0, 10), start, end: start + duration };
  };
  const overlaps = (o: Occurrence) => o.start < window.to && o.end > window.from;
  if (!series.rrule) {
    const only = toOccurrence(dtstart);
    return overlaps(only) && !except.has(only.day) ? [only] : [];
  }
  let rule: RRule;
  try {
    rule = new RRule({ ...RRule.parseString(series.rrule), dtstart, tzid: null });
  } catch {
    return [];
  }
  // The window in floating time, widened by more than any zone's offset and the duration.
  const margin = 2 * 86_400_000 + duration;
  const from = new Date(wallMsOf(window.from, series.timeZone) - margin);
  const to = new Date(wallMsOf(window.to, series.timeZone) + margin);
  const found: Occurrence[] = [];
  rule.between(from, to, true, (date: Date) => {
    const occurrence = toOccurrence(date);
    if (overlaps(occurrence) && !except.has(occurrence.day)) found.push(occurrence);
    return found.length < MAX_OCCURRENCES;
  });
  return found;
}
