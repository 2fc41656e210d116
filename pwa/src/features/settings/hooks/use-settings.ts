import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { Settings } from '@platform/schema/settings/settings.zod';
import { NetworkError } from '../../../lib/api.ts';
import { getSettings } from '../api/get-settings.ts';
import { retryUnlessOffline } from '../../../lib/query-retry.ts';

export type SettingsState =
  | { status: 'loading' }
  | { status: 'ready'; settings: Settings }
  | { status: 'failed'; offline: boolean };

const settingsKey = ['settings'] as const;

/**
 * The person's settings: server state, not replicated (TanStack Query keeps the last answer,
 * retries, and asks again when the device comes back online). `online` holds the first ask
 * while the device knows it is offline.
 */
export function useSettings(online: boolean) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: settingsKey,
    queryFn: ({ signal }) => getSettings(signal),
    enabled: online,
    retry: retryUnlessOffline,
  });
  const update = useCallback(
    (settings: Settings) => queryClient.setQueryData(settingsKey, settings),
    [queryClient],
  );
  const state: SettingsState = query.data
    ? { status: 'ready', settings: query.data }
    : query.isError
      ? { status: 'failed', offline: query.error instanceof NetworkError }
      : online
        ? { status: 'loading' }
        : { status: 'failed', offline: true };
  return { state, update };
}
