import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { CustomerProfile } from '@platform/schema/crm/crm.zod';
import { ApiError, NetworkError } from '../../../lib/api.ts';
import { getCustomerProfile } from '../api/get-customer-profile.ts';
import { retryServerFaults } from '../../../lib/query-retry.ts';

export type ProfileState =
  | { status: 'loading' }
  | { status: 'ready'; profile: CustomerProfile }
  /** 404: no such customer in this organisation (another organisation's id included). */
  | { status: 'not-found' }
  | { status: 'offline' }
  | { status: 'failed' };

const profileKey = (rosterId: string) => ['crm-profile', rosterId] as const;

/**
 * What only the server knows of a customer — family, metrics, activity, invitation and payment
 * status — as server state (TanStack Query: cached, retried, asked again when back online).
 * Contact details, phone, tags and notes are replicated and read from the device instead.
 */
export function useCustomerProfile(rosterId: string) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: profileKey(rosterId),
    queryFn: ({ signal }) => getCustomerProfile(rosterId, signal),
    retry: retryServerFaults,
  });
  const reload = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: profileKey(rosterId) }),
    [queryClient, rosterId],
  );
  const state: ProfileState = query.data
    ? { status: 'ready', profile: query.data }
    : query.isPending
      ? { status: 'loading' }
      : query.error instanceof ApiError && query.error.status === 404
        ? { status: 'not-found' }
        : query.error instanceof NetworkError
          ? { status: 'offline' }
          : { status: 'failed' };
  return { state, reload };
}
