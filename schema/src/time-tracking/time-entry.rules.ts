import type { TimeEntryDoc } from './time-entry.zod.ts';

export const timeEntryMessages = {
  endsBeforeStart: 'A time entry must end after it starts.',
  breakOutside: 'A break must lie inside its time entry.',
  breakEndsBeforeStart: 'A break must end after it starts.',
  breaksOverlap: 'Breaks must not overlap.',
  openBreakOnClosedEntry: 'A finished time entry cannot have a break still running.',
  twoOpenBreaks: 'Only the last break can still be running.',
} as const;

/** The rules every time entry obeys, on the device and on the server. Returns the first broken one. */
export function timeEntryRuleViolation(
  entry: Pick<TimeEntryDoc, 'startTime' | 'endTime' | 'breakIntervals'>,
): string | null {
  const start = Date.parse(entry.startTime);
  const end = entry.endTime === null ? null : Date.parse(entry.endTime);
  if (end !== null && end <= start) return timeEntryMessages.endsBeforeStart;
  const breaks = [...entry.breakIntervals].sort(
    (a, b) => Date.parse(a.startTime) - Date.parse(b.startTime),
  );
  let previousEnd = -Infinity;
  for (const [index, interval] of breaks.entries()) {
    const breakStart = Date.parse(interval.startTime);
    const breakEnd = interval.endTime === null ? null : Date.parse(interval.endTime);
    if (breakStart < start || (end !== null && breakStart > end))
      return timeEntryMessages.breakOutside;
    if (breakEnd === null) {
      if (end !== null) return timeEntryMessages.openBreakOnClosedEntry;
      if (index !== breaks.length - 1) return timeEntryMessages.twoOpenBreaks;
    } else {
      if (breakEnd <= breakStart) return timeEntryMessages.breakEndsBeforeStart;
      if (end !== null && breakEnd > end) return timeEntryMessages.breakOutside;
    }
    if (breakStart < previousEnd) return timeEntryMessages.breaksOverlap;
    previousEnd = breakEnd ?? Infinity;
  }
  return null;
}
