import { z } from 'zod';

/**
 * The one range every time in a replicated document and in an API body lies in: from the
 * first millisecond of 1900 up to (not including) 2200, UTC (decision 0040). Wide enough for
 * a device whose clock was reset to 1970 and for bookings far ahead; far from the years 0–99
 * that JavaScript reads as 19xx, from year 0, and from most zones' local mean time.
 */
export const TIME_RANGE = {
  from: '1900-01-01T00:00:00.000Z',
  until: '2200-01-01T00:00:00.000Z',
} as const;
const FROM_MS = Date.parse(TIME_RANGE.from);
const UNTIL_MS = Date.parse(TIME_RANGE.until);

/** The same words in the browser's forms and in the server's 4xx answers. */
export const timeOutOfRangeMessage = 'Times must lie between the years 1900 and 2199.';

/** How long every time in a document is as text: four-digit years (the range), ms, `Z`. */
export const ISO_TIME_LENGTH = '2000-01-01T00:00:00.000Z'.length;

/** Whether an instant (epoch milliseconds) lies in TIME_RANGE. */
export const isInTimeRange = (ms: number): boolean => ms >= FROM_MS && ms < UNTIL_MS;

/**
 * Times on the wire and in local documents: ISO-8601 UTC with exactly milliseconds
 * (`Date#toISOString()`), so a document that round-trips through PostgreSQL compares equal —
 * conflict detection depends on it — and inside TIME_RANGE. A value of the wrong form is told
 * only that (`abort`), not also that it is out of range.
 */
export const isoTimeSchema = z.iso
  .datetime({ precision: 3, offset: false, abort: true })
  .refine((value) => isInTimeRange(Date.parse(value)), timeOutOfRangeMessage);

/**
 * A time an answer reports from what the server stored, outside replicated documents (a
 * note's date on a customer's profile): the same form, no range — what was stored before the
 * range existed must not make a whole page unreadable. Never for what a client sends.
 */
export const storedIsoTimeSchema = z.iso.datetime({ precision: 3, offset: false });
export const toIsoTime = (date: Date): string => date.toISOString();
