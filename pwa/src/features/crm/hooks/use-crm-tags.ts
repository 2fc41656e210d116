import { useQuery } from '@tanstack/react-query';
import { useSignedInUser } from '../../../lib/current-user.ts';
import { getCrmTags } from '../api/customer-details.ts';
import { retryUnlessOffline } from '../../../lib/query-retry.ts';

/**
 * The organisation's tags for the filter: server state (asked while online, kept for the visit);
 * offline, or until the server answers, the tags of the rows at hand.
 */
export function useCrmTags(online: boolean, fallback: readonly string[]): string[] {
  const orgId = useSignedInUser().org?.id ?? null;
  const query = useQuery({
    queryKey: ['crm-tags', orgId],
    queryFn: ({ signal }) => getCrmTags(signal),
    enabled: online,
    retry: retryUnlessOffline,
  });
  return query.data ?? [...new Set(fallback)].sort((a, b) => a.localeCompare(b));
}
