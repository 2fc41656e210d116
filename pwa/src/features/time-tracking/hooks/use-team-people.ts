import { useEffect, useState } from 'react';
import type { TimeTrackingPerson } from '@platform/schema/time-tracking/time-tracking.zod';
import { getPeople } from '../api/get-people.ts';

export type TeamPeople = { people: TimeTrackingPerson[] | null; failed: boolean };

/** The organisation's people who track time, for managers (`enabled`); asked again when back online. */
export function useTeamPeople(orgId: string, enabled: boolean, online: boolean): TeamPeople {
  const [state, setState] = useState<TeamPeople>({ people: null, failed: false });
  useEffect(() => {
    if (!enabled || !online) return;
    const controller = new AbortController();
    getPeople(orgId, controller.signal).then(
      (people) => setState({ people, failed: false }),
      () => {
        if (!controller.signal.aborted) setState((s) => ({ people: s.people, failed: true }));
      },
    );
    return () => controller.abort();
  }, [orgId, enabled, online]);
  return state;
}
