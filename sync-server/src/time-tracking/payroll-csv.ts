import { dayKeyOf, wallTimeOf } from '@platform/schema/time-tracking/org-calendar';
import { workedMsWithin } from '@platform/schema/time-tracking/time-totals.rules';
import type { EntryWithPerson } from './time-tracking-reports.repository.ts';

/** One row per entry, the columns a payroll spreadsheet wants. */
export const payrollCsvHeader = [
  'Person',
  'Email',
  'Date',
  'Start',
  'End',
  'Break minutes',
  'Worked hours',
] as const;

// No CSV library is installed (neither papaparse nor csv-stringify is in node_modules), and
// writing — unlike parsing — needs only RFC 4180's quoting rule, so it is written here rather
// than adding a dependency for it.

/** A spreadsheet runs a cell starting with one of these as a formula (CSV injection). */
const formulaStart = /^[=+\-@\t\r]/;

/** RFC 4180: a field holding a comma, a quote or a line break is quoted, its quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Text typed by people (names, emails) is defused: a leading `'` keeps a formula as text. */
export function csvText(value: string): string {
  return csvField(formulaStart.test(value) ? `'${value}` : value);
}

/**
 * UTF-8 with a byte-order mark (so Excel reads accents right), CRLF after every record
 * including the last, as RFC 4180 writes it. Fields must already be quoted (csvField).
 */
export function csvDocument(records: ReadonlyArray<readonly string[]>): string {
  return `\uFEFF${records.map((record) => `${record.join(',')}\r\n`).join('')}`;
}

/**
 * An entry as a payroll row, in the organisation's zone: the day and clock time it started,
 * when it ended (blank while it runs), the minutes of break and the hours worked to two
 * decimals — a running entry counted up to `now`, as the page counts it.
 */
export function payrollRecord(entry: EntryWithPerson, timeZone: string, now: number): string[] {
  const start = Date.parse(entry.startTime);
  const end = entry.endTime === null ? null : Date.parse(entry.endTime);
  const worked = workedMsWithin(entry, now);
  const span = Math.max(0, (end ?? now) - start);
  return [
    csvText(entry.fullName),
    csvText(entry.email ?? ''),
    dayKeyOf(start, timeZone),
    wallTimeOf(start, timeZone),
    end === null ? '' : wallTimeOf(end, timeZone),
    String(Math.round((span - worked) / 60_000)),
    (worked / 3_600_000).toFixed(2),
  ];
}
