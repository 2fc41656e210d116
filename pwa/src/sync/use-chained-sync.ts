import { useEffect, useRef, useState } from 'react';
import type { SyncStatus } from './replication.ts';
import type { DeviceSync } from './start-device-sync.ts';

export type ChainedSyncState = {
  sync: DeviceSync | null;
  status: SyncStatus | null;
  error: string | null;
};

/**
 * A device sync that follows its inputs (`key`): each start waits for the previous one to stop,
 * so a new scope, a remount or StrictMode never opens one database twice; stopped when the
 * screen goes. Used for the signed-in account (SyncProvider) and the kiosk alike.
 */
export function useChainedSync(
  key: string,
  start: () => Promise<DeviceSync>,
): ChainedSyncState & { running: React.RefObject<Promise<DeviceSync | null>> } {
  const [state, setState] = useState<ChainedSyncState>({ sync: null, status: null, error: null });
  const running = useRef<Promise<DeviceSync | null>>(Promise.resolve(null));
  const startRef = useRef(start);
  // The latest start, for the next change of key (effects run in order: this one first).
  useEffect(() => {
    startRef.current = start;
  });

  useEffect(() => {
    let live = true;
    let unsubscribe = () => {};
    const starting = running.current
      .then((previous) => previous?.stop())
      .then(() => startRef.current())
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
        console.error('local database could not start', error);
        if (live)
          setState({ sync: null, status: null, error: 'Offline data is unavailable on this device.' });
        return null;
      });
    running.current = starting;
    return () => {
      live = false;
      unsubscribe();
      void starting.then((sync) => sync?.stop());
    };
  }, [key]);

  return { ...state, running };
}
