import { passwordResultSchema } from '@platform/schema/auth/auth.zod';
import { api } from '../../../lib/api.ts';

/** POST /api/auth/reset-password: 400 when the token is unknown, used or expired. */
export async function resetPassword(input: { token: string; password: string }): Promise<string> {
  const result = await api('/api/auth/reset-password', {
    json: input,
    schema: passwordResultSchema,
  });
  return result.message;
}
