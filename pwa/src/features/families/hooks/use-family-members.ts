import { useCallback, useEffect, useState } from 'react';
import type { FamilyMember } from '@platform/schema/families/families.zod';
import { NetworkError } from '../../../lib/api.ts';

export type FamilyMembers =
  | { status: 'loading' }
  | { status: 'ready'; members: FamilyMember[] }
  | { status: 'failed'; offline: boolean };

/**
 * One list of the subject's family (guardians or children) from the server, loaded when the
 * modal opens and again on `reload` (after a change).
 */
export function useFamilyMembers(
  load: (subjectId: string, signal: AbortSignal) => Promise<FamilyMember[]>,
  subjectId: string,
) {
  const [state, setState] = useState<FamilyMembers>({ status: 'loading' });
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    load(subjectId, controller.signal).then(
      (members) => setState({ status: 'ready', members }),
      (error: unknown) => {
        if (!controller.signal.aborted)
          setState({ status: 'failed', offline: error instanceof NetworkError });
      },
    );
    return () => controller.abort();
  }, [load, subjectId, generation]);

  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  return { state, reload };
}
