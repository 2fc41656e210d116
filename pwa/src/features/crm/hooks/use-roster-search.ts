import { keepPreviousData, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import {
  ROSTER_PAGE_SIZE_DEFAULT,
  type RosterRow,
  type RosterSortField,
} from '@platform/schema/crm/crm.zod';
import { useLiveQuery } from '../../../db/use-live-query.ts';
import { NetworkError } from '../../../lib/api.ts';
import { useSignedInUser } from '../../../lib/current-user.ts';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { useAccountSync } from '../../../sync/sync-context.tsx';
import { searchCustomers } from '../api/search-customers.ts';
import { searchLocalRoster } from '../local-roster-search.ts';
import { useDebouncedValue } from './use-debounced-value.ts';
import { retryServerFaults } from '../../../lib/query-retry.ts';

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
  /**
   * The rows on screen answer an earlier search than the one typed: while the typing settles
   * (the debounce) and while the server answers the new search (the previous page is kept).
   */
  refreshing: boolean;
  loadMore: () => void;
  reload: () => void;
};

const SEARCH_DEBOUNCE_MS = 250;

type SearchKey = Omit<RosterFilters, 'tag'> & { tag: string | null; limit: number };
/** Every roster search of one account in one organisation (reload invalidates them all). */
const rosterSearchKey = (userId: string, orgId: string | null) =>
  ['crm-roster-search', userId, orgId] as const;

/**
 * The roster as staff search it: online, the server searches (typo-tolerant, keyset pages) as
 * server state (TanStack Query: cached per search, retried, the previous page kept on screen
 * while the next search loads); offline — or when a request cannot reach the server — the
 * roster replicated to this device is searched by prefix, so the front desk keeps working.
 */
export function useRosterSearch(
  filters: RosterFilters,
  limit = ROSTER_PAGE_SIZE_DEFAULT,
): RosterResults {
  const user = useSignedInUser();
  const queryClient = useQueryClient();
  const online = useOnlineStatus();
  const [unreachable, setUnreachable] = useState(false);
  const useServer = online && !unreachable;
  const q = useDebouncedValue(filters.q.trim(), SEARCH_DEBOUNCE_MS);
  const userId = user.id;
  const orgId = user.org?.id ?? null;
  const search: SearchKey = {
    q,
    tag: filters.tag ?? null,
    sort: filters.sort,
    dir: filters.dir,
    limit,
  };

  const queryKey = [...rosterSearchKey(userId, orgId), search];
  // A failure kept in the cache from an earlier visit to the screen is not news: a new screen
  // asks the server again before turning to the device.
  const [seenError, setSeenError] = useState(
    () => queryClient.getQueryState(queryKey)?.errorUpdatedAt ?? 0,
  );
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam, signal }) =>
      searchCustomers(
        {
          q,
          ...(filters.tag ? { tag: filters.tag } : {}),
          sort: filters.sort,
          dir: filters.dir,
          limit,
          ...(pageParam ? { cursor: pageParam } : {}),
        },
        signal,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
    enabled: useServer,
    // The device's replica answers at once when the server cannot be reached: no retry then,
    // nor for a search the server refused.
    retry: retryServerFaults,
  });

  // A request that cannot reach the server turns to the device's roster; back online, the
  // server is asked again (state adjusted while rendering, not in an effect).
  if (query.error instanceof NetworkError && query.errorUpdatedAt !== seenError) {
    setSeenError(query.errorUpdatedAt);
    setUnreachable(true);
  }
  const [wasOnline, setWasOnline] = useState(online);
  if (online !== wasOnline) {
    setWasOnline(online);
    if (online) setUnreachable(false);
  }

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const loadMoreFromServer = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const reload = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: rosterSearchKey(userId, orgId) }),
    [queryClient, userId, orgId],
  );

  // What was typed and has not been searched for yet.
  const typing = filters.q.trim() !== q;
  const device = useDeviceRoster(useServer ? null : { ...filters, q }, limit);
  if (!useServer) return { ...device, refreshing: typing, reload };

  const current = query.isPlaceholderData ? undefined : query.data;
  const first = current?.pages[0];
  const failed = query.isError && !query.isFetchNextPageError;
  return {
    // Until the answer comes, the rows of the previous search stay on screen, marked loading.
    status: failed
      ? 'failed'
      : !current || (query.isFetching && !isFetchingNextPage)
        ? 'loading'
        : 'ready',
    rows: failed ? [] : (query.data?.pages.flatMap((page) => page.rows) ?? []),
    total: first?.total ?? null,
    totalCapped: first?.totalCapped ?? false,
    hasMore: current !== undefined && hasNextPage,
    loadingMore: isFetchingNextPage,
    source: 'server',
    refreshing: typing || query.isPlaceholderData,
    loadMore: loadMoreFromServer,
    reload,
  };
}

/** The same search over this device's replicated roster, paged by `limit` rows. */
function useDeviceRoster(
  filters: RosterFilters | null,
  limit: number,
): Omit<RosterResults, 'reload' | 'refreshing'> {
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
