import { useQuery } from '@tanstack/react-query';
import { NetworkError } from '../../../lib/api.ts';
import { getAuthConfig } from '../api/get-auth-config.ts';
import { retryUnlessOffline } from '../../../lib/query-retry.ts';

export type AuthConfigState =
  | { status: 'loading' }
  | { status: 'ready'; googleClientId: string | null }
  | { status: 'failed'; offline: boolean };

/** GET /api/auth/config, asked once per visit and shared by every screen that needs it. */
export function useAuthConfig(): AuthConfigState {
  const query = useQuery({
    queryKey: ['auth-config'],
    queryFn: ({ signal }) => getAuthConfig(signal),
    staleTime: Infinity,
    retry: retryUnlessOffline,
  });
  if (query.isSuccess) return { status: 'ready', googleClientId: query.data.googleClientId };
  if (query.isError) return { status: 'failed', offline: query.error instanceof NetworkError };
  return { status: 'loading' };
}

/** Google sign-in is offered only where this server is configured for it (issue 14). */
export function useGoogleSignInAvailable(): boolean {
  const config = useAuthConfig();
  return config.status === 'ready' && config.googleClientId !== null;
}
