import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { FamilyMember } from '@platform/schema/families/families.zod';
import { NetworkError } from '../../../lib/api.ts';
import { retryUnlessOffline } from '../../../lib/query-retry.ts';

export type FamilyMembers =
  | { status: 'loading' }
  | { status: 'ready'; members: FamilyMember[] }
  | { status: 'failed'; offline: boolean };

/**
 * One list of the subject's family (guardians or children) from the server — server state
 * (TanStack Query), asked again on `reload` after a change.
 */
export function useFamilyMembers(
  kind: 'guardians' | 'children',
  load: (subjectId: string, signal: AbortSignal) => Promise<FamilyMember[]>,
  subjectId: string,
) {
  const queryClient = useQueryClient();
  const key = ['family', kind, subjectId] as const;
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => load(subjectId, signal),
    retry: retryUnlessOffline,
  });
  const reload = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: ['family'] }),
    [queryClient],
  );
  const state: FamilyMembers = query.data
    ? { status: 'ready', members: query.data }
    : query.isError
      ? { status: 'failed', offline: query.error instanceof NetworkError }
      : { status: 'loading' };
  return { state, reload };
}
