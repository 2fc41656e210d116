import {
  fieldErrorsBodySchema,
  signupResultSchema,
  type FieldError,
  type SignupDto,
} from '@platform/schema/auth/auth.zod';
import { api, ApiError } from '../../../lib/api.ts';

export type SignupOutcome =
  | { kind: 'created'; redirectTo: string }
  | { kind: 'invalid'; errors: FieldError[] }
  | { kind: 'unknown' };

/**
 * spec §7 POST /api/auth/create-account, action signup. A 400 carries validation errors;
 * every other failure (other statuses above 400, offline, a malformed answer) is 'unknown'.
 */
export async function createAccount(signupDto: SignupDto): Promise<SignupOutcome> {
  try {
    const result = await api('/api/auth/create-account', {
      json: { action: 'signup', signupDto },
      schema: signupResultSchema,
    });
    return result.success
      ? { kind: 'created', redirectTo: result.redirectTo }
      : { kind: 'invalid', errors: result.errors };
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) {
      // The signup shape, or the general 400 body, which carries the same `errors` list.
      const parsed = fieldErrorsBodySchema.safeParse(error.body);
      if (parsed.success) return { kind: 'invalid', errors: parsed.data.errors };
    }
    return { kind: 'unknown' };
  }
}
