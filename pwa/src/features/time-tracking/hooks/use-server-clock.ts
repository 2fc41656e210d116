import { useCallback, useEffect, useState } from 'react';
import type { ClockState } from '@platform/schema/time-tracking/time-clock.rules';
import type { TimeEntryDoc } from '@platform/schema/time-tracking/time-entry.zod';
import { NetworkError } from '../../../lib/api.ts';
import { getCurrentStatus } from '../api/get-current-status.ts';
import { getTimeEntries } from '../api/get-time-entries.ts';
import type { Range } from '@platform/schema/time-tracking/org-calendar';

export type ServerClock = {
  state: ClockState | null;
  /** Today's entries; null while loading. */
  entries: TimeEntryDoc[] | null;
  /** The last request never reached the server. */
  unreachable: boolean;
  failed: boolean;
  setState: (state: ClockState) => void;
  markUnreachable: () => void;
  refetchEntries: () => Promise<void>;
  /** Asks for the status and today's entries again (after an entry was edited). */
  refetchAll: () => Promise<void>;
};

type Loaded =
  | { ok: true; state: ClockState | null; entries: TimeEntryDoc[] }
  | { ok: false; unreachable: boolean };

async function loadToday(
  orgId: string,
  today: Range,
  withStatus: boolean,
  signal?: AbortSignal,
): Promise<Loaded> {
  const from = new Date(today.from).toISOString();
  const to = new Date(today.to).toISOString();
  try {
    const [state, entries] = await Promise.all([
      withStatus ? getCurrentStatus({ orgId }, signal) : null,
      getTimeEntries({ orgId, from, to }, signal),
    ]);
    return { ok: true, state, entries };
  } catch (error) {
    return { ok: false, unreachable: error instanceof NetworkError };
  }
}

/**
 * The caller's clock and today's entries as the server has them — today being the
 * organisation's day `today`; asks again when the device comes back online or the day changes.
 */
export function useServerClock(orgId: string, online: boolean, today: Range): ServerClock {
  const [state, setState] = useState<ClockState | null>(null);
  const [entries, setEntries] = useState<TimeEntryDoc[] | null>(null);
  const [unreachable, setUnreachable] = useState(false);
  const [failed, setFailed] = useState(false);

  const apply = useCallback((loaded: Loaded) => {
    if (loaded.ok) {
      if (loaded.state) setState(loaded.state);
      setEntries(loaded.entries);
    }
    setUnreachable(!loaded.ok && loaded.unreachable);
    setFailed(!loaded.ok && !loaded.unreachable);
  }, []);

  const { from, to } = today;
  useEffect(() => {
    if (!online) return;
    const controller = new AbortController();
    void loadToday(orgId, { from, to }, true, controller.signal).then((loaded) => {
      if (!controller.signal.aborted) apply(loaded);
    });
    return () => controller.abort();
  }, [online, orgId, from, to, apply]);

  const refetchEntries = useCallback(
    () => loadToday(orgId, { from, to }, false).then(apply),
    [orgId, from, to, apply],
  );
  const refetchAll = useCallback(
    () => loadToday(orgId, { from, to }, true).then(apply),
    [orgId, from, to, apply],
  );
  const markUnreachable = useCallback(() => setUnreachable(true), []);
  return {
    state,
    entries,
    unreachable,
    failed,
    setState,
    markUnreachable,
    refetchEntries,
    refetchAll,
  };
}
