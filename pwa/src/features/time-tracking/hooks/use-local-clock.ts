import { useMemo } from 'react';
import type { Range } from '@platform/schema/time-tracking/org-calendar';
import { clockStatusOf, type ClockState } from '@platform/schema/time-tracking/time-clock.rules';
import { entryTouches } from '@platform/schema/time-tracking/time-totals.rules';
import type { TimeEntryDoc } from '@platform/schema/time-tracking/time-entry.zod';
import type { AccountDatabase } from '../../../db/database.ts';
import { useReplicaEntries } from './use-replica-entries.ts';

export type LocalClock = {
  db: AccountDatabase | null;
  ready: boolean;
  state: ClockState;
  /** Today's entries on this device, oldest first. */
  today: TimeEntryDoc[];
};

/** The person's clock and today's entries, from the time entries on this device. */
export function useLocalClock(userId: string, orgId: string, today: Range): LocalClock {
  const replica = useReplicaEntries({ userId, orgId });
  const { from, to } = today;
  return useMemo(
    () => ({
      db: replica.db,
      ready: replica.ready,
      state: clockStatusOf(replica.entries),
      // A running entry reaches into today whatever the minute; the totals count it up to now.
      today: replica.entries.filter((entry) => entryTouches(entry, { from, to }, Infinity)),
    }),
    [replica, from, to],
  );
}
