import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { cancelPackageInvite, getPendingInvites } from '../api/package-invites.ts';

/**
 * Open invitations are server state for staff (TanStack Query): every list of them shares the
 * 'package-invites' prefix, so a send or a cancel refetches the profile's and the roster's.
 */
export const pendingInvitesKey = (rosterId: string | null) =>
  ['package-invites', rosterId ?? 'all'] as const;

export function usePendingInvites(rosterId: string | null) {
  return useQuery({
    queryKey: pendingInvitesKey(rosterId),
    queryFn: ({ signal }) => getPendingInvites(rosterId, signal),
  });
}

export function useInvitesChanged() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['package-invites'] });
}

export function useCancelInvite() {
  const changed = useInvitesChanged();
  return useMutation({ mutationFn: cancelPackageInvite, onSettled: changed });
}
