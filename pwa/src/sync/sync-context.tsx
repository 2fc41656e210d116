import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { CurrentUser } from '@platform/schema/me/me.zod';
import type { AccountSync } from './start-account-sync.ts';
import type { SyncStatus } from './replication.ts';

type SyncState = { sync: AccountSync | null; status: SyncStatus | null; error: string | null };
type SyncValue = SyncState & {
  /** Stops replication, closes the local database and deletes it (signing out). */
  forgetLocalData: () => Promise<void>;
};
const SyncContext = createContext<SyncValue>({
  sync: null,
  status: null,
  error: null,
  forgetLocalData: async () => {},
});

/**
 * Replication for the signed-in account: starts after sign-in, follows the active account (a
 * switch into a child closes one database and opens the other), stops on the way out.
 */
export function SyncProvider({ user, children }: { user: CurrentUser; children: ReactNode }) {
  const [value, setValue] = useState<SyncState>({ sync: null, status: null, error: null });
  const running = useRef<Promise<AccountSync | null>>(Promise.resolve(null));
  const orgId = user.org?.id ?? null;
  const claimsKey = user.claims.join(',');

  useEffect(() => {
    let live = true;
    let running: AccountSync | null = null;
    let unsubscribe = () => {};
    void import('./start-account-sync.ts')
      .then(({ startAccountSync }) =>
        startAccountSync(user.id, {
          view: user.view,
          orgId,
          claims: claimsKey ? claimsKey.split(',') : [],
        }),
      )
      .then((sync) => {
        if (!live) return sync.stop();
        running = sync;
        const subscription = sync.engine.status$.subscribe((status) =>
          setValue({ sync, status, error: null }),
        );
        unsubscribe = () => subscription.unsubscribe();
      })
      .catch((error: unknown) => {
        console.error('local database could not start', error);
        if (live)
          setValue({
            sync: null,
            status: null,
            error: 'Offline data is unavailable on this device.',
          });
      });
    return () => {
      live = false;
      unsubscribe();
      void running?.stop();
    };
  }, [user.id, user.view, orgId, claimsKey]);

  // Stop the running sync when the provider goes away for good (leaving the signed-in area).
  useEffect(() => () => void running.current.then((sync) => sync?.stop()), []);

  const forgetLocalData = useCallback(async () => {
    const sync = await running.current;
    running.current = Promise.resolve(null);
    await sync?.stop();
    const { forgetAccountData } = await import('./start-account-sync.ts');
    await forgetAccountData(user.id);
  }, [user.id]);

  const context = useMemo(() => ({ ...value, forgetLocalData }), [value, forgetLocalData]);
  return <SyncContext.Provider value={context}>{children}</SyncContext.Provider>;
}

export function useAccountSync(): SyncValue {
  return useContext(SyncContext);
}
