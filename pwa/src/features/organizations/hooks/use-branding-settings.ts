import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { BrandingSettingsResponse } from '@platform/schema/branding/branding.zod';
import { NetworkError } from '../../../lib/api.ts';
import { getBrandingSettings } from '../api/branding.ts';
import { retryUnlessOffline } from '../../../lib/query-retry.ts';

export type BrandingSettingsState =
  | { status: 'loading' }
  | { status: 'ready'; settings: BrandingSettingsResponse }
  | { status: 'failed'; message: string };

const brandingSettingsKey = (orgId: string) => ['branding-settings', orgId] as const;

/**
 * The organisation's branding as its managers edit it (server state; what customers' devices
 * show is the replicated org-branding collection). Saving answers with the new settings.
 */
export function useBrandingSettings(orgId: string, enabled: boolean) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: brandingSettingsKey(orgId),
    queryFn: ({ signal }) => getBrandingSettings(orgId, signal),
    enabled: enabled && orgId !== '',
    retry: retryUnlessOffline,
  });
  const update = useCallback(
    (settings: BrandingSettingsResponse) =>
      queryClient.setQueryData(brandingSettingsKey(orgId), settings),
    [queryClient, orgId],
  );
  const state: BrandingSettingsState = query.data
    ? { status: 'ready', settings: query.data }
    : query.isError
      ? {
          status: 'failed',
          message:
            query.error instanceof NetworkError
              ? 'You are offline. The branding settings need a connection.'
              : 'The branding settings could not be loaded. Please try again.',
        }
      : { status: 'loading' };
  return { state, update };
}
