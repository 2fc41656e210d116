import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { KioskPinStatus } from '@platform/schema/kiosk/kiosk.zod';
import { useSignedInUser } from '../../../lib/current-user.ts';
import { getKioskPinStatus } from '../api/get-kiosk-pin-status.ts';
import { retryUnlessOffline } from '../../../lib/query-retry.ts';

/**
 * Whether the signed-in person has a kiosk PIN (and whether it is locked): server state, not
 * replicated. `null` until the server has answered, or when it cannot be asked.
 */
export function useKioskPinStatus() {
  const userId = useSignedInUser().id;
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ['kiosk-pin', userId],
    queryFn: ({ signal }) => getKioskPinStatus(signal),
    retry: retryUnlessOffline,
  });
  /** Setting or removing the PIN answers with the new status. */
  const update = useCallback(
    (status: KioskPinStatus) => queryClient.setQueryData(['kiosk-pin', userId], status),
    [queryClient, userId],
  );
  return { status: query.data ?? null, update };
}
