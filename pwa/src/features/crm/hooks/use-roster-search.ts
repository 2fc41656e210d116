import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  ROSTER_PAGE_SIZE_DEFAULT,
  type RosterRow,
  type RosterSortField,
} from '@platform/schema/crm/crm.zod';
import { useLiveQuery } from '../../../db/use-live-query.ts';
import { NetworkError } from '../../../lib/api.ts';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { useAccountSync } from '../../../sync/sync-context.tsx';
import { searchCustomers } from '../api/search-customers.ts';
import { searchLocalRoster } from '../local-roster-search.ts';
import { useDebouncedValue } from './use-debounced-value.ts';

export type RosterFilters = {
  q: string;
  tag: string | undefined;
  sort: RosterSortField;
  dir: 'asc' | 'desc';
};

export type RosterResults = {
  status: 'loading' | 'ready' | 'failed';
  rows: RosterRow[];
  /** Number of matches when known (the server caps its count). */
  total: number | null;
  totalCapped: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  /** 'device': the network is down and the search ran over the roster replicated here. */
  source: 'server' | 'device';
  loadMore: () => void;
  reload: () => void;
};

const SEARCH_DEBOUNCE_MS = 250;

type ServerPage = {
  key: string;
  status: 'loading' | 'ready' | 'failed';
  rows: RosterRow[];
  nextCursor: string | null;
  total: number | null;
  totalCapped: boolean;
  loadingMore: boolean;
};

/**
 * The roster as staff search it: online, the server searches (typo-tolerant, keyset pages);
 * offline — or when a request cannot reach the server — the roster replicated to this device
 * is searched by prefix, so the front desk keeps working.
 */
export function useRosterSearch(
  filters: RosterFilters,
  limit = ROSTER_PAGE_SIZE_DEFAULT,
): RosterResults {
  const online = useOnlineStatus();
  const [unreachable, setUnreachable] = useState(false);
  const useServer = online && !unreachable;
  const q = useDebouncedValue(filters.q.trim(), SEARCH_DEBOUNCE_MS);
  const [generation, setGeneration] = useState(0);
  const key = JSON.stringify([q, filters.tag, filters.sort, filters.dir, generation]);
  const [page, setPage] = useState<ServerPage | null>(null);

  // Back online: try the server again (state adjusted while rendering, not in an effect).
  const [wasOnline, setWasOnline] = useState(online);
  if (online !== wasOnline) {
    setWasOnline(online);
    if (online) setUnreachable(false);
  }

  const fetchPage = useCallback(
    (cursor: string | undefined, signal?: AbortSignal) =>
      searchCustomers(
        {
          q,
          ...(filters.tag ? { tag: filters.tag } : {}),
          sort: filters.sort,
          dir: filters.dir,
          limit,
          ...(cursor ? { cursor } : {}),
        },
        signal,
      ),
    [q, filters.tag, filters.sort, filters.dir, limit],
  );

  useEffect(() => {
    if (!useServer) return;
    // Until the answer comes, the page of the previous key stays on screen, marked loading.
    const controller = new AbortController();
    fetchPage(undefined, controller.signal).then(
      (answer) =>
        setPage({
          key,
          status: 'ready',
          rows: answer.rows,
          nextCursor: answer.nextCursor,
          total: answer.total,
          totalCapped: answer.totalCapped,
          loadingMore: false,
        }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof NetworkError) setUnreachable(true);
        else
          setPage({
            key,
            status: 'failed',
            rows: [],
            nextCursor: null,
            total: null,
            totalCapped: false,
            loadingMore: false,
          });
      },
    );
    return () => controller.abort();
  }, [useServer, key, fetchPage]);

  const loadMoreFromServer = useCallback(() => {
    if (!page?.nextCursor || page.loadingMore) return;
    const startedFor = page.key;
    setPage({ ...page, loadingMore: true });
    fetchPage(page.nextCursor).then(
      (answer) =>
        setPage((p) =>
          p && p.key === startedFor
            ? {
                ...p,
                rows: [...p.rows, ...answer.rows],
                nextCursor: answer.nextCursor,
                loadingMore: false,
              }
            : p,
        ),
      (error: unknown) => {
        if (error instanceof NetworkError) setUnreachable(true);
        setPage((p) => p && { ...p, loadingMore: false });
      },
    );
  }, [page, fetchPage]);

  const device = useDeviceRoster(useServer ? null : { ...filters, q }, limit);
  const reload = useCallback(() => setGeneration((n) => n + 1), []);

  if (!useServer) return { ...device, reload };
  return {
    status: !page || page.key !== key ? 'loading' : page.status,
    rows: page?.rows ?? [],
    total: page?.key === key ? page.total : null,
    totalCapped: page?.totalCapped ?? false,
    hasMore: page?.key === key && page.nextCursor !== null,
    loadingMore: page?.loadingMore ?? false,
    source: 'server',
    loadMore: loadMoreFromServer,
    reload,
  };
}

/** The same search over this device's replicated roster, paged by `limit` rows. */
function useDeviceRoster(
  filters: RosterFilters | null,
  limit: number,
): Omit<RosterResults, 'reload'> {
  const { sync } = useAccountSync();
  const roster = useLiveQuery(filters ? (sync?.db ?? null) : null, 'roster');
  const [shown, setShown] = useState(limit);
  const filterKey = JSON.stringify(filters);
  // A new search starts at the first page again.
  const [shownFor, setShownFor] = useState(filterKey);
  if (shownFor !== filterKey) {
    setShownFor(filterKey);
    setShown(limit);
  }
  const matches = useMemo(
    () => (filters ? searchLocalRoster(roster.documents, filters) : []),
    // filterKey stands for filters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [roster.documents, filterKey],
  );
  return {
    status: roster.status,
    rows: matches.slice(0, shown),
    total: matches.length,
    totalCapped: false,
    hasMore: matches.length > shown,
    loadingMore: false,
    source: 'device',
    loadMore: () => setShown((n) => n + limit),
  };
}
