import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Range } from '@platform/schema/time-tracking/org-calendar';
import {
  timeEntryDocSchema,
  type TimeEntryDoc,
} from '@platform/schema/time-tracking/time-entry.zod';
import { entryTouches } from '@platform/schema/time-tracking/time-totals.rules';
import { useLiveQuery } from '../../../db/use-live-query.ts';
import { NetworkError } from '../../../lib/api.ts';
import { useAccountSync } from '../../../sync/sync-context.tsx';
import { getTimeEntries } from '../api/get-time-entries.ts';

type Options = {
  orgId: string;
  /** Whose entries: the caller's own, or (managers) everyone's in the organisation. */
  everyone: boolean;
  userId: string;
  range: Range;
  online: boolean;
  /** Changes when something outside (a clock move) changed entries: asks the server again. */
  refreshKey: number;
};

export type WeekEntries = {
  /** Entries with time in the range, oldest first; null while loading. */
  entries: TimeEntryDoc[] | null;
  failed: boolean;
  /** Read from this device because the server cannot be reached. */
  fromDevice: boolean;
  reload: () => void;
};

/** `week` names the range asked for, `key` also the asking (a reload asks the same week again). */
type Answer = { week: string; key: string } & (
  { ok: true; entries: TimeEntryDoc[] } | { ok: false; unreachable: boolean }
);

/**
 * The entries of a range as the server has them; when it cannot be reached, as replicated to
 * this device (a manager's device holds everyone's, a staff member's their own).
 */
export function useWeekEntries(options: Options): WeekEntries {
  const { orgId, everyone, userId, range, online, refreshKey } = options;
  const db = useAccountSync().sync?.db ?? null;
  const live = useLiveQuery(db, 'time-entries', {
    selector: everyone ? { orgId } : { orgId, userId },
  });
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [version, setVersion] = useState(0);
  const { from, to } = range;
  const week = `${orgId}:${everyone}:${from}:${to}`;
  const key = `${week}:${refreshKey}:${version}`;

  useEffect(() => {
    if (!online) return;
    const controller = new AbortController();
    const query = {
      orgId,
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      ...(everyone ? { userId: 'all' as const } : {}),
    };
    getTimeEntries(query, controller.signal).then(
      (entries) => setAnswer({ week, key, ok: true, entries }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setAnswer({ week, key, ok: false, unreachable: error instanceof NetworkError });
      },
    );
    return () => controller.abort();
  }, [online, orgId, everyone, from, to, week, key]);

  const local = useMemo(() => {
    if (live.status !== 'ready') return null;
    return (
      live.documents
        .flatMap((doc) => {
          const parsed = timeEntryDocSchema.safeParse(doc);
          return parsed.success ? [parsed.data] : [];
        })
        // Running entries are kept open-ended here; the week's totals place them up to now.
        .filter((entry) => entryTouches(entry, { from, to }, Infinity))
        .sort((a, b) => Date.parse(a.startTime) - Date.parse(b.startTime))
    );
  }, [live, from, to]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const current = answer?.key === key ? answer : null;
  const fromDevice = !online || (current !== null && !current.ok && current.unreachable);
  if (fromDevice) return { entries: local, failed: false, fromDevice, reload };
  // While the same week is asked again, its last answer stays on screen (and keeps focus).
  const shown = current ?? (answer?.week === week && answer.ok ? answer : null);
  if (shown?.ok) return { entries: shown.entries, failed: false, fromDevice, reload };
  return { entries: null, failed: current !== null, fromDevice, reload };
}
