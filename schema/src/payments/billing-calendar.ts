import { addDays, daysBetween, type DayKey } from '../time-tracking/org-calendar.ts';

/** spec §3 Product.schedule. */
export const schedules = [
  'week',
  'bi-weekly',
  'month',
  'quarter',
  'bi-yearly',
  'year',
  'one-time',
] as const;
export type Schedule = (typeof schedules)[number];
export type RecurringSchedule = Exclude<Schedule, 'one-time'>;

/** How long one billing period of each recurring schedule is. */
const periods: Record<RecurringSchedule, { days: number } | { months: number }> = {
  week: { days: 7 },
  'bi-weekly': { days: 14 },
  month: { months: 1 },
  quarter: { months: 3 },
  'bi-yearly': { months: 6 },
  year: { months: 12 },
};

/** Whether a schedule's periods are counted in months (and so can be anchored to a day of the month). */
export function isMonthlyCycle(schedule: Schedule): boolean {
  return schedule !== 'one-time' && 'months' in periods[schedule];
}

const parse = (day: DayKey) => {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return { year, month, date };
};
const format = (year: number, month: number, date: number): DayKey =>
  `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(date).padStart(2, '0')}`;

export function daysInMonth(year: number, month: number): number {
  // Day 0 of the next month is the last of this one; a UTC date has no daylight-saving gaps.
  const last = new Date(0);
  last.setUTCFullYear(year, month, 0);
  return last.getUTCDate();
}

/**
 * `day` moved by whole months, kept on the same day of the month or, where the month is
 * shorter, on its last day (Jan 31 + 1 month = Feb 28, or Feb 29 in a leap year) — how card
 * processors bill a subscription that began on the 31st.
 */
export function addMonths(day: DayKey, months: number): DayKey {
  const { year, month, date } = parse(day);
  const index = year * 12 + (month - 1) + months;
  const toYear = Math.floor(index / 12);
  const toMonth = (index % 12) + 1;
  return format(toYear, toMonth, Math.min(date, daysInMonth(toYear, toMonth)));
}

/** The day one period of `schedule` after `day` (a subscription's next billing date). */
export function addPeriods(day: DayKey, schedule: RecurringSchedule, count = 1): DayKey {
  const period = periods[schedule];
  return 'days' in period
    ? addDays(day, period.days * count)
    : addMonths(day, period.months * count);
}

/** The longest a period of each schedule can be, in days (a month from the 31st is 31). */
const longestPeriodDays: Record<RecurringSchedule, number> = {
  week: 7,
  'bi-weekly': 14,
  month: 31,
  quarter: 92,
  'bi-yearly': 184,
  year: 366,
};

/**
 * The first billing date after `day` of a subscription whose dates are `anchor` + k periods
 * (k ≥ 0). Always counted from the anchor, never from the previous date: a subscription that
 * began on Jan 31 bills Feb 28, then Mar 31 — counted from Feb 28 it would drift to the 28th.
 */
export function billingDateAfter(anchor: DayKey, schedule: RecurringSchedule, day: DayKey): DayKey {
  if (anchor > day) return anchor;
  // No period is longer than its longest, so this many periods never pass `day`; step from there.
  let periods = Math.floor(daysBetween(anchor, day) / longestPeriodDays[schedule]);
  while (addPeriods(anchor, schedule, periods) <= day) periods++;
  return addPeriods(anchor, schedule, periods);
}

/** The day one period before `day`. */
export function subtractPeriod(day: DayKey, schedule: RecurringSchedule): DayKey {
  return addPeriods(day, schedule, -1);
}

/** spec §9: the billing day of the month is clamped to 1–28 (every month has it), default 1. */
export const DEFAULT_BILLING_DAY = 1;
export function clampBillingDay(day: number | null | undefined): number {
  if (day === null || day === undefined || !Number.isFinite(day)) return DEFAULT_BILLING_DAY;
  return Math.min(28, Math.max(1, Math.trunc(day)));
}

/**
 * spec §9: "next billing date is the next occurrence of that day" — the first day after
 * `from` that is the billing day of its month (from itself when it already is one, since a
 * subscription starting on its billing day needs no proration).
 */
export function nextBillingDay(from: DayKey, billingDayOfMonth: number): DayKey {
  const billingDay = clampBillingDay(billingDayOfMonth);
  const { year, month, date } = parse(from);
  if (date <= billingDay) return format(year, month, billingDay);
  return addMonths(format(year, month, billingDay), 1);
}

export { addDays, daysBetween };
