import { useMemo } from 'react';
import type { Range } from '@platform/schema/time-tracking/org-calendar';
import type { TimeEntryDoc } from '@platform/schema/time-tracking/time-entry.zod';
import { entryTouches } from '@platform/schema/time-tracking/time-totals.rules';
import { useReplicaEntries } from './use-replica-entries.ts';

export type WeekEntries = {
  /** Entries with time in the range, oldest first; null until they reached this device. */
  entries: TimeEntryDoc[] | null;
  /** Every entry of the people shown, for the overlap rule a correction is checked against. */
  all: TimeEntryDoc[];
  /** Whether the entries reached this device once (`all` is complete from then on). */
  ready: boolean;
};

/** The entries of a range from this device: the caller's own, or (managers) everyone's. */
export function useWeekEntries(options: {
  orgId: string;
  everyone: boolean;
  userId: string;
  range: Range;
}): WeekEntries {
  const { orgId, everyone, userId, range } = options;
  const replica = useReplicaEntries(everyone ? { orgId } : { orgId, userId });
  const { from, to } = range;
  return useMemo(
    () => ({
      // Running entries are kept open-ended here; the week's totals place them up to now.
      entries: replica.ready
        ? replica.entries.filter((entry) => entryTouches(entry, { from, to }, Infinity))
        : null,
      all: replica.entries,
      ready: replica.ready,
    }),
    [replica, from, to],
  );
}
