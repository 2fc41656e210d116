import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';
import type { CurrentUser } from '@platform/schema/me/me.zod';
import type { SyncStatus } from './replication.ts';
import type { AccountSync } from './start-account-sync.ts';
import { useChainedSync } from './use-chained-sync.ts';

type SyncState = { sync: AccountSync | null; status: SyncStatus | null; error: string | null };
type SyncValue = SyncState & {
  /** Stops replication, closes the local database and deletes the account's data (signing out). */
  forgetLocalData: () => Promise<void>;
};
const SyncContext = createContext<SyncValue>({
  sync: null,
  status: null,
  error: null,
  forgetLocalData: async () => {},
});

/**
 * Resolves once the page has painted and the browser has a quiet moment (or after 1.5 s at the
 * latest; hidden tabs paint nothing). The sync engine (RxDB, Dexie: ~300 kB of script) then
 * loads without holding up the screen the person opened — its own data shows from the device
 * a moment later, as it would while loading anyway.
 */
function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    const latest = setTimeout(resolve, 1500);
    const done = () => {
      clearTimeout(latest);
      resolve();
    };
    if (typeof requestAnimationFrame !== 'function') return done();
    requestAnimationFrame(() => {
      if (typeof requestIdleCallback === 'function') requestIdleCallback(done, { timeout: 1500 });
      else setTimeout(done, 0);
    });
  });
}

/**
 * Replication for the signed-in account: starts after sign-in and follows the active account
 * and scope (a switch closes one database before the next opens), stops on the way out.
 */
export function SyncProvider({ user, children }: { user: CurrentUser; children: ReactNode }) {
  const orgId = user.org?.id ?? null;
  const claimsKey = user.claims.join(',');
  // A customer's scope includes their children: linking or disconnecting one starts a new scope.
  const familyKey =
    user.view === 'customer'
      ? user.children
          .map((c) => c.id)
          .sort()
          .join(',')
      : '';
  const { running, sync, status, error } = useChainedSync(
    [user.id, user.view, orgId, claimsKey, familyKey].join('|'),
    () =>
      afterFirstPaint()
        .then(() => import('./start-account-sync.ts'))
        .then(({ startAccountSync }) =>
          startAccountSync(
            user.id,
            { view: user.view, orgId, claims: claimsKey ? claimsKey.split(',') : [] },
            familyKey ? familyKey.split(',') : [],
          ),
        ),
  );

  const forgetLocalData = useCallback(async () => {
    const sync = await running.current;
    await sync?.stop();
    const { forgetAccountData } = await import('./start-account-sync.ts');
    await forgetAccountData(user.id);
  }, [running, user.id]);

  const context = useMemo(
    () => ({ sync, status, error, forgetLocalData }),
    [sync, status, error, forgetLocalData],
  );
  return <SyncContext.Provider value={context}>{children}</SyncContext.Provider>;
}

export function useAccountSync(): SyncValue {
  return useContext(SyncContext);
}
