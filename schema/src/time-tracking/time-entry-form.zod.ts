import { z } from 'zod';
import { isInTimeRange, timeOutOfRangeMessage } from '../sync/iso-time.ts';
import { instantOfWallInput, wallInputOf } from './org-calendar.ts';
import { timeEntryMessages, timeEntryRuleViolation } from './time-entry.rules.ts';
import type { EntryTimes } from './time-totals.rules.ts';

/** Ours: the edit dialog's own messages; the entry rules speak with timeEntryMessages. */
export const timeEntryFormMessages = {
  startRequired: 'Enter when the entry starts.',
  breakStartRequired: 'Enter when the break starts.',
  notATime: 'Enter a date and a time.',
} as const;

/**
 * The edit dialog's values: wall-clock times in the organisation's zone, as an
 * `<input type="datetime-local">` holds them ('YYYY-MM-DDTHH:MM'); an empty end means still
 * running.
 */
export type TimeEntryFormValues = {
  start: string;
  end: string;
  breaks: Array<{ start: string; end: string }>;
};

/**
 * Wall-clock values back to UTC. A value left as it was shown keeps the stored instant to the
 * millisecond — the inputs only show minutes, and an edit of the start must not cut the
 * seconds off an untouched end.
 */
export function timesFromForm(
  values: TimeEntryFormValues,
  timeZone: string,
  original?: EntryTimes,
): EntryTimes | null {
  const instant = (value: string, kept: string | null | undefined): string | null | undefined => {
    if (value === '') return null;
    if (kept && wallInputOf(kept, timeZone) === value) return kept;
    return instantOfWallInput(value, timeZone) ?? undefined;
  };
  const startTime = instant(values.start, original?.startTime);
  const endTime = instant(values.end, original?.endTime);
  const breakIntervals = values.breaks.map((interval, index) => {
    const before = original?.breakIntervals[index];
    return {
      startTime: instant(interval.start, before?.startTime),
      endTime: instant(interval.end, before?.endTime),
    };
  });
  if (!startTime || endTime === undefined) return null;
  if (breakIntervals.some((b) => !b.startTime || b.endTime === undefined)) return null;
  return { startTime, endTime, breakIntervals: breakIntervals as EntryTimes['breakIntervals'] };
}

export function formFromEntry(entry: EntryTimes, timeZone: string): TimeEntryFormValues {
  return {
    start: wallInputOf(entry.startTime, timeZone),
    end: entry.endTime ? wallInputOf(entry.endTime, timeZone) : '',
    breaks: entry.breakIntervals.map((interval) => ({
      start: wallInputOf(interval.startTime, timeZone),
      end: interval.endTime ? wallInputOf(interval.endTime, timeZone) : '',
    })),
  };
}

const breakMessages: ReadonlySet<string> = new Set([
  timeEntryMessages.breakOutside,
  timeEntryMessages.breakEndsBeforeStart,
  timeEntryMessages.breaksOverlap,
  timeEntryMessages.openBreakOnClosedEntry,
  timeEntryMessages.twoOpenBreaks,
]);

/** The dialog's schema: each value a wall-clock time, and the entry they make obeying the entry rules. */
export function timeEntryFormSchema(timeZone: string, original?: EntryTimes) {
  const instantOf = (value: string) => instantOfWallInput(value, timeZone);
  const wallTime = z
    .string()
    .refine((value) => value === '' || instantOf(value) !== null, timeEntryFormMessages.notATime)
    // The server's range (schema/src/sync/iso-time.ts), so the dialog says what the API would.
    .refine((value) => {
      const instant = value === '' ? null : instantOf(value);
      return instant === null || isInTimeRange(Date.parse(instant));
    }, timeOutOfRangeMessage);
  return z
    .object({
      start: wallTime.refine((value) => value !== '', timeEntryFormMessages.startRequired),
      end: wallTime,
      breaks: z
        .array(
          z.object({
            start: wallTime.refine(
              (value) => value !== '',
              timeEntryFormMessages.breakStartRequired,
            ),
            end: wallTime,
          }),
        )
        .max(50),
    })
    .superRefine((values, ctx) => {
      const times = timesFromForm(values, timeZone, original);
      const violation = times && timeEntryRuleViolation(times);
      if (!violation) return;
      ctx.addIssue({
        code: 'custom',
        message: violation,
        path: breakMessages.has(violation) ? ['breaks'] : ['end'],
      });
    });
}
