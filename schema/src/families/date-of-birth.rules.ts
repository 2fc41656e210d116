import { z } from 'zod';
import { familyMessages } from './families.messages.ts';

/**
 * A child's date of birth (issue 14): optional, a calendar day 'YYYY-MM-DD', not in the future
 * and not more than MAX_AGE_YEARS ago. "Today" is the latest calendar day anywhere on Earth
 * (UTC+14) for the future check and the earliest (UTC−12) for the oldest, so a family in any
 * zone can enter a birth of their own today, and nobody is refused for where the server is.
 */
export const MAX_AGE_YEARS = 120;

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The latest and earliest calendar days it is now anywhere. */
function todayRange(now: number): { latest: string; earliest: string } {
  return { latest: dayOf(now + 14 * 3_600_000), earliest: dayOf(now - 12 * 3_600_000) };
}

function yearsBefore(day: string, years: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const date = new Date(0);
  date.setUTCFullYear(y - years, m - 1, d);
  return date.toISOString().slice(0, 10);
}

/** The latest date of birth accepted now: a date input's `max`. */
export function latestBirthday(now = Date.now()): string {
  return todayRange(now).latest;
}

/** Why a date of birth is refused, or null. */
export function dateOfBirthProblem(day: string, now = Date.now()): string | null {
  const { latest, earliest } = todayRange(now);
  if (day > latest) return familyMessages.dateOfBirthInFuture;
  if (day < yearsBefore(earliest, MAX_AGE_YEARS)) return familyMessages.dateOfBirthTooLongAgo;
  return null;
}

/** Whole years from `dateOfBirth` to `today` (both 'YYYY-MM-DD'); a 29 February birthday counts on 1 March. */
export function ageOn(dateOfBirth: string, today: string): number {
  const [by, bm, bd] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  const hadBirthday = tm > bm || (tm === bm && td >= bd);
  return Math.max(0, ty - by - (hadBirthday ? 0 : 1));
}

/** 'Age 9', '11 months', '3 weeks': how a child's age reads beside their name. */
export function ageText(dateOfBirth: string, today: string): string {
  const years = ageOn(dateOfBirth, today);
  if (years >= 1) return `Age ${years}`;
  const [by, bm, bd] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  const months = (ty - by) * 12 + (tm - bm) - (td < bd ? 1 : 0);
  if (months >= 1) return `${months} ${months === 1 ? 'month' : 'months'}`;
  const days = Math.round((Date.parse(today) - Date.parse(dateOfBirth)) / DAY_MS);
  const weeks = Math.floor(Math.max(0, days) / 7);
  return weeks >= 1 ? `${weeks} ${weeks === 1 ? 'week' : 'weeks'}` : 'Newborn';
}

/** The field of a form or request: a real calendar day within the rule above. */
export const dateOfBirthSchema = z.iso
  .date(familyMessages.dateOfBirthInvalid)
  .superRefine((day, ctx) => {
    const problem = dateOfBirthProblem(day);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
