import type { Kiosk } from '@platform/schema/kiosk/kiosk.zod';
import { useChainedSync } from '../../../sync/use-chained-sync.ts';
import { startKioskSync } from '../kiosk-sync.ts';

/** The kiosk's replication while its screen is open; a refreshed roster is the same kiosk. */
export function useKioskSync(kiosk: Kiosk) {
  const { sync, status, error } = useChainedSync(`${kiosk.id}:${kiosk.org.id}`, () =>
    startKioskSync(kiosk.id, kiosk.org.id),
  );
  return { sync, status, error };
}
