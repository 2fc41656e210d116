import type { TimeEntryDoc } from '@platform/schema/time-tracking/time-entry.zod';
import { dayKeyOf } from '@platform/schema/time-tracking/org-calendar';
import { formatClockTime, formatDay } from './time-display.ts';

/** "Monday, November 23, 08:30–17:15" — an entry named in words, for dialogs and screen readers. */
export function entrySummary(entry: TimeEntryDoc, timeZone: string): string {
  const day = formatDay(dayKeyOf(Date.parse(entry.startTime), timeZone), timeZone);
  const end = entry.endTime ? formatClockTime(entry.endTime, timeZone) : 'still running';
  return `${day}, ${formatClockTime(entry.startTime, timeZone)}–${end}`;
}
