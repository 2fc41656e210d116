import { useMemo } from 'react';
import type { Range } from '@platform/schema/time-tracking/org-calendar';
import { clockStatusOf, type ClockState } from '@platform/schema/time-tracking/time-clock.rules';
import { entryTouches } from '@platform/schema/time-tracking/time-totals.rules';
import {
  timeEntryDocSchema,
  type TimeEntryDoc,
} from '@platform/schema/time-tracking/time-entry.zod';
import type { AccountDatabase } from '../../../db/database.ts';
import { useLiveQuery } from '../../../db/use-live-query.ts';
import { useAccountSync } from '../../../sync/sync-context.tsx';

export type LocalClock = {
  db: AccountDatabase | null;
  ready: boolean;
  state: ClockState;
  /** Today's entries on this device, oldest first. */
  today: TimeEntryDoc[];
};

/** The person's clock from the time entries replicated to this device (what offline reads). */
export function useLocalClock(userId: string, orgId: string, today: Range): LocalClock {
  const db = useAccountSync().sync?.db ?? null;
  const live = useLiveQuery(db, 'time-entries', { selector: { userId, orgId } });
  const { from, to } = today;
  return useMemo(() => {
    const entries = live.documents.flatMap((doc) => {
      const parsed = timeEntryDocSchema.safeParse(doc);
      return parsed.success ? [parsed.data] : [];
    });
    // A running entry reaches into today whatever the minute; the totals count it up to now.
    const onToday = entries
      .filter((entry) => entryTouches(entry, { from, to }, Infinity))
      .sort((a, b) => Date.parse(a.startTime) - Date.parse(b.startTime));
    return {
      db,
      ready: live.status === 'ready',
      state: clockStatusOf(entries),
      today: onToday,
    };
  }, [db, live, from, to]);
}
