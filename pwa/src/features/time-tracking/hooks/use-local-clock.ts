import { useMemo } from 'react';
import { clockStatusOf, type ClockState } from '@platform/schema/time-tracking/time-clock.rules';
import {
  timeEntryDocSchema,
  type TimeEntryDoc,
} from '@platform/schema/time-tracking/time-entry.zod';
import type { AccountDatabase } from '../../../db/database.ts';
import { useLiveQuery } from '../../../db/use-live-query.ts';
import { useAccountSync } from '../../../sync/sync-context.tsx';
import { todayRange } from '../time-display.ts';

export type LocalClock = {
  db: AccountDatabase | null;
  ready: boolean;
  state: ClockState;
  /** Today's entries on this device, oldest first. */
  today: TimeEntryDoc[];
};

/** The person's clock from the time entries replicated to this device (what offline reads). */
export function useLocalClock(userId: string, orgId: string): LocalClock {
  const db = useAccountSync().sync?.db ?? null;
  const live = useLiveQuery(db, 'time-entries', { selector: { userId, orgId } });
  return useMemo(() => {
    const entries = live.documents.flatMap((doc) => {
      const parsed = timeEntryDocSchema.safeParse(doc);
      return parsed.success ? [parsed.data] : [];
    });
    const from = todayRange().from.getTime();
    const today = entries
      .filter((entry) => entry.endTime === null || Date.parse(entry.endTime) > from)
      .sort((a, b) => Date.parse(a.startTime) - Date.parse(b.startTime));
    return { db, ready: live.status === 'ready', state: clockStatusOf(entries), today };
  }, [db, live]);
}
