import { useCallback } from 'react';
import type { FamilyMember } from '@platform/schema/families/families.zod';
import { CHILD_CREATION_RELOAD_WAIT_MS } from '@platform/schema/app/constants';
import { useAccountSync } from '../../../sync/sync-context.tsx';
import { waitForRosterMembers } from '../wait-for-roster.ts';

/**
 * spec §9: after child creation the page reloads, with a 10 s wait. The wait ends early once
 * the new children have replicated into this device's roster, so the reloaded page (and the
 * family it shows offline) has them.
 */
export function useReloadAfterChildren() {
  const { sync } = useAccountSync();
  const db = sync?.db ?? null;
  return useCallback(
    async (children: FamilyMember[]) => {
      // A child who owns an address reaches this device only once they confirm the guardian
      // (decision 0035): wait for the others.
      await waitForRosterMembers(
        db,
        children.filter((child) => child.awaitingConfirmation !== true).map((child) => child.id),
        CHILD_CREATION_RELOAD_WAIT_MS,
      );
      window.location.reload();
    },
    [db],
  );
}
