import { useQuery } from '@tanstack/react-query';
import type { TimeTrackingPerson } from '@platform/schema/time-tracking/time-tracking.zod';
import { getPeople } from '../api/get-people.ts';

export type TeamPeople = { people: TimeTrackingPerson[] | null; failed: boolean };

/**
 * The organisation's people who track time, for managers (`enabled`): names are server state,
 * not replicated (TanStack Query keeps the last answer and asks again when back online).
 */
export function useTeamPeople(orgId: string, enabled: boolean): TeamPeople {
  const query = useQuery({
    queryKey: ['time-tracking-people', orgId],
    queryFn: ({ signal }) => getPeople(orgId, signal),
    enabled,
  });
  return { people: query.data ?? null, failed: query.isError && !query.data };
}
