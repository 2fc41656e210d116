import { useMemo } from 'react';
import { clockStatusOf, type ClockState } from '@platform/schema/time-tracking/time-clock.rules';
import { timeEntryDocSchema } from '@platform/schema/time-tracking/time-entry.zod';
import type { AccountDatabase } from '../../../db/database.ts';
import { useLiveQuery } from '../../../db/use-live-query.ts';

/** One person's clock from the time entries on this kiosk (null while they load). */
export function usePersonClock(
  db: AccountDatabase | null,
  orgId: string,
  userId: string,
): ClockState | null {
  const live = useLiveQuery(db, 'time-entries', { selector: { orgId, userId } });
  return useMemo(() => {
    if (live.status !== 'ready') return null;
    const entries = live.documents.flatMap((doc) => {
      const parsed = timeEntryDocSchema.safeParse(doc);
      return parsed.success ? [parsed.data] : [];
    });
    return clockStatusOf(entries);
  }, [live]);
}
