import { useEffect, useState } from 'react';
import { NetworkError } from '../../../lib/api.ts';
import { getAuthConfig } from '../api/get-auth-config.ts';

export type AuthConfigState =
  | { status: 'loading' }
  | { status: 'ready'; googleClientId: string | null }
  | { status: 'failed'; offline: boolean };

/** GET /api/auth/config once for the page. */
export function useAuthConfig(): AuthConfigState {
  const [state, setState] = useState<AuthConfigState>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    getAuthConfig(controller.signal).then(
      (config) => setState({ status: 'ready', googleClientId: config.googleClientId }),
      (error: unknown) => {
        if (!controller.signal.aborted)
          setState({ status: 'failed', offline: error instanceof NetworkError });
      },
    );
    return () => controller.abort();
  }, []);
  return state;
}
