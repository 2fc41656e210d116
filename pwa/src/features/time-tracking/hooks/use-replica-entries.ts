import { useMemo } from 'react';
import {
  timeEntryDocSchema,
  type TimeEntryDoc,
} from '@platform/schema/time-tracking/time-entry.zod';
import type { AccountDatabase } from '../../../db/database.ts';
import { useLiveQuery } from '../../../db/use-live-query.ts';
import { useAccountSync } from '../../../sync/sync-context.tsx';

export type ReplicaEntries = {
  db: AccountDatabase | null;
  /** Until the entries reached this device once (DESIGN.md How data flows 6). */
  ready: boolean;
  /** Oldest first. */
  entries: TimeEntryDoc[];
};

/**
 * Time entries as this device has them — the one source every time-tracking screen reads,
 * online or not: a manager's device holds the organisation's, a staff member's their own. A
 * change made on another device arrives through replication and shows at once.
 */
export function useReplicaEntries(selector: { orgId: string; userId?: string }): ReplicaEntries {
  const db = useAccountSync().sync?.db ?? null;
  const live = useLiveQuery(db, 'time-entries', { selector });
  return useMemo(
    () => ({
      db,
      ready: live.status === 'ready',
      entries: live.documents
        .flatMap((doc) => {
          const parsed = timeEntryDocSchema.safeParse(doc);
          return parsed.success ? [parsed.data] : [];
        })
        .sort((a, b) => Date.parse(a.startTime) - Date.parse(b.startTime)),
    }),
    [db, live],
  );
}
