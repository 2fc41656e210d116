import { useMemo } from 'react';
import { clockStatusOf, type ClockStatus } from '@platform/schema/time-tracking/time-clock.rules';
import {
  timeEntryDocSchema,
  type TimeEntryDoc,
} from '@platform/schema/time-tracking/time-entry.zod';
import type { AccountDatabase } from '../../../db/database.ts';
import { useLiveQuery } from '../../../db/use-live-query.ts';

/**
 * Everyone's clock at this kiosk, from its replica of the organisation's time entries (the
 * same state machine as each person's own screen): in, on break or out, by user id. Null until
 * the entries have reached this device once: an empty replica then is "not known yet", and a
 * tile must not say "Out" of someone who is in (the kiosk also replicates bookings and class
 * times now, so the entries may take a moment longer).
 */
export function useTeamClock(
  db: AccountDatabase | null,
  orgId: string,
): Map<string, ClockStatus> | null {
  const live = useLiveQuery(db, 'time-entries', { selector: { orgId } });
  return useMemo(() => {
    if (live.status !== 'ready') return null;
    const byPerson = new Map<string, TimeEntryDoc[]>();
    for (const doc of live.documents) {
      const parsed = timeEntryDocSchema.safeParse(doc);
      if (!parsed.success) continue;
      byPerson.set(parsed.data.userId, [...(byPerson.get(parsed.data.userId) ?? []), parsed.data]);
    }
    return new Map(
      [...byPerson].map(([userId, entries]) => [userId, clockStatusOf(entries).status] as const),
    );
  }, [live.status, live.documents]);
}
