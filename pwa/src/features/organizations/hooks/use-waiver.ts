import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WaiverInput } from '@platform/schema/organizations/documents.zod';
import { getWaiver, saveWaiver } from '../api/waiver.ts';

const waiverKey = (orgId: string | null) => ['waiver-of-liability', orgId] as const;

/** An organisation's waiver of liability (server state, not replicated). */
export function useWaiver(orgId: string | null) {
  return useQuery({
    queryKey: waiverKey(orgId),
    queryFn: ({ signal }) => getWaiver(orgId ?? '', signal),
    enabled: orgId !== null,
  });
}

export function useSaveWaiver(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: WaiverInput) => saveWaiver(orgId, input),
    onSuccess: (waiver) => queryClient.setQueryData(waiverKey(orgId), waiver),
  });
}
