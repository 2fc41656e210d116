import { useQuery } from '@tanstack/react-query';
import { getOrgHome } from '../api/get-org-home.ts';

/** Server figures, not replicated: cached for the visit, refreshed each minute while shown. */
export function useOrgHome(orgId: string | null) {
  return useQuery({
    queryKey: ['org-home', orgId],
    queryFn: ({ signal }) => getOrgHome(orgId ?? '', signal),
    enabled: orgId !== null,
    refetchInterval: 60_000,
  });
}
