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
 * same state machine as each person's own screen): in, on break or out, by user id. Empty
 * while the entries load.
 */
export function useTeamClock(db: AccountDatabase | null, orgId: string): Map<string, ClockStatus> {
  const live = useLiveQuery(db, 'time-entries', { selector: { orgId } });
  return useMemo(() => {
    const byPerson = new Map<string, TimeEntryDoc[]>();
    for (const doc of live.documents) {
      const parsed = timeEntryDocSchema.safeParse(doc);
      if (!parsed.success) continue;
      byPerson.set(parsed.data.userId, [...(byPerson.get(parsed.data.userId) ?? []), parsed.data]);
    }
    return new Map(
      [...byPerson].map(([userId, entries]) => [userId, clockStatusOf(entries).status] as const),
    );
  }, [live.documents]);
}
