import { passwordResultSchema } from '@platform/schema/auth/auth.zod';
import { api } from '../../../lib/api.ts';

/** POST /api/auth/forgot-password: the same answer whether or not the account exists. */
export async function requestPasswordReset(email: string): Promise<string> {
  const result = await api('/api/auth/forgot-password', {
    json: { email },
    schema: passwordResultSchema,
  });
  return result.message;
}
