import { authConfigSchema, type AuthConfig } from '@platform/schema/auth/auth.zod';
import { api } from '../../../lib/api.ts';

/** GET /api/auth/config: whether Google sign-in is configured on this server. */
export function getAuthConfig(signal?: AbortSignal): Promise<AuthConfig> {
  return api('/api/auth/config', { schema: authConfigSchema, ...(signal ? { signal } : {}) });
}
