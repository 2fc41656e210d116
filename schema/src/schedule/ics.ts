import { createEvents, type EventAttributes } from 'ics';

/**
 * iCalendar text of bookings (issue 16: 'Add to calendar' per booking, and each customer's
 * private feed): the same function on the device, where one booking becomes a file from the
 * replica (offline too), and on the server, which answers the feed. `ics` (adamgibbons/ics)
 * escapes text, folds long lines and writes CRLF; times go out in UTC, so a calendar app in
 * any zone shows them right.
 */
export type IcsEntry = {
  /** Stable per class time and person: a calendar updates the event instead of adding one. */
  uid: string;
  title: string;
  location: string;
  description: string;
  startsAt: string;
  endsAt: string;
  cancelled: boolean;
  url?: string;
};

export function icsOf(entries: readonly IcsEntry[], calendarName: string): string {
  const events: EventAttributes[] = entries.map((entry) => ({
    uid: entry.uid,
    title: entry.title,
    location: entry.location || undefined,
    description: entry.description || undefined,
    start: Date.parse(entry.startsAt),
    startInputType: 'utc',
    startOutputType: 'utc',
    end: Date.parse(entry.endsAt),
    endInputType: 'utc',
    endOutputType: 'utc',
    status: entry.cancelled ? 'CANCELLED' : 'CONFIRMED',
    ...(entry.url ? { url: entry.url } : {}),
  }));
  const { error, value } = createEvents(events, {
    calName: calendarName,
    productId: '-//Coaching Platform//Schedule//EN',
  });
  if (error || value === null) throw error ?? new Error('The calendar could not be written.');
  return value;
}

/** The uid of a person's place in a class time. */
export const icsUidOf = (occurrenceId: string, personId: string) =>
  `${occurrenceId}.${personId}@coaching-platform`;
