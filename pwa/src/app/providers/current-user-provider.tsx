import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  CurrentUserContext,
  fetchCurrentUser,
  type CurrentUserState,
  type CurrentUserValue,
} from '../../lib/current-user.ts';

/**
 * Loads GET /api/me once for the whole app and keeps it; `refresh` asks again (after creating
 * an organisation, after signing in on this page). Offline, the service worker answers with the
 * last copy it saw (sw.ts, NetworkFirst); coming back online retries a failed first load.
 */
export function CurrentUserProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<CurrentUserState>({ status: 'loading' });
  const inflight = useRef<Promise<CurrentUserState> | null>(null);

  const refresh = useCallback(() => {
    inflight.current ??= fetchCurrentUser()
      .then((next) => {
        setState(next);
        return next;
      })
      .finally(() => {
        inflight.current = null;
      });
    return inflight.current;
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  useEffect(() => {
    if (state.status !== 'offline') return;
    const retry = () => void refresh();
    window.addEventListener('online', retry);
    return () => window.removeEventListener('online', retry);
  }, [state.status, refresh]);

  const value = useMemo<CurrentUserValue>(() => ({ ...state, refresh }), [state, refresh]);
  return <CurrentUserContext.Provider value={value}>{children}</CurrentUserContext.Provider>;
}
