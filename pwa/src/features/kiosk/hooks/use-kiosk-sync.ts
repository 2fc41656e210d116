import { useEffect, useRef, useState } from 'react';
import type { Kiosk } from '@platform/schema/kiosk/kiosk.zod';
import type { SyncStatus } from '../../../sync/replication.ts';
import { startKioskSync, type KioskSync } from '../kiosk-sync.ts';

type State = { sync: KioskSync | null; status: SyncStatus | null; error: string | null };

/**
 * The kiosk's replication while its screen is open. Each start waits for the previous one to
 * stop, so a remount (StrictMode, a new roster) never opens the database twice.
 */
export function useKioskSync(kiosk: Kiosk): State {
  const [state, setState] = useState<State>({ sync: null, status: null, error: null });
  const running = useRef<Promise<KioskSync | null>>(Promise.resolve(null));
  // Only the kiosk's identity matters here; a refreshed roster is the same kiosk.
  const kioskId = kiosk.id;
  const orgId = kiosk.org.id;

  useEffect(() => {
    let live = true;
    let unsubscribe = () => {};
    const starting = running.current
      .then((previous) => previous?.stop())
      .then(() => startKioskSync(kioskId, orgId))
      .then((sync) => {
        if (live) {
          const subscription = sync.engine.status$.subscribe((status) =>
            setState({ sync, status, error: null }),
          );
          unsubscribe = () => subscription.unsubscribe();
        }
        return sync;
      })
      .catch((error: unknown) => {
        console.error('the kiosk database could not start', error);
        if (live)
          setState({
            sync: null,
            status: null,
            error: 'Offline data is unavailable on this device.',
          });
        return null;
      });
    running.current = starting;
    return () => {
      live = false;
      unsubscribe();
      void starting.then((sync) => sync?.stop());
    };
  }, [kioskId, orgId]);

  return state;
}
