import { useMemo } from 'react';
import { occurrenceDocSchema, type OccurrenceDoc } from '@platform/schema/schedule/schedule.zod';
import { dayKeyOf, dayRange } from '@platform/schema/time-tracking/org-calendar';
import type { AccountDatabase } from '../../../db/database.ts';
import { useLiveQuery } from '../../../db/use-live-query.ts';

/**
 * Today's class times in the organisation's zone, from the kiosk's replica of the timetable:
 * classes, events and booked appointments, not cancelled, earliest first. `loading` until the
 * timetable has reached this device once.
 */
export function useTodaysClasses(
  db: AccountDatabase | null,
  orgId: string,
  timeZone: string,
  now: Date,
): { loading: boolean; classes: OccurrenceDoc[] } {
  const { from, to } = dayRange(dayKeyOf(now.getTime(), timeZone), timeZone);
  const live = useLiveQuery(db, 'occurrences', {
    selector: {
      orgId,
      status: 'scheduled',
      startsAt: { $gte: new Date(from).toISOString(), $lt: new Date(to).toISOString() },
    },
    sort: [{ startsAt: 'asc' }],
  });
  const classes = useMemo(
    () =>
      live.documents.flatMap((doc) => {
        const parsed = occurrenceDocSchema.safeParse(doc);
        return parsed.success ? [parsed.data] : [];
      }),
    [live.documents],
  );
  return { loading: live.status === 'loading', classes };
}
