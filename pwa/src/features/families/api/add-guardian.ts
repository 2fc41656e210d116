import { fieldErrorsBodySchema, type FieldError } from '@platform/schema/auth/auth.zod';
import {
  addGuardianResponseSchema,
  type FamilyMember,
  type GuardianSignupDto,
} from '@platform/schema/families/families.zod';
import { api, ApiError } from '../../../lib/api.ts';

export type AddGuardianOutcome =
  { kind: 'added'; guardian: FamilyMember } | { kind: 'invalid'; errors: FieldError[] };

/**
 * spec §7 POST /api/guardians, action add-guardian. A 400 lists field errors; any other
 * failure throws (the form says 'We could not add this guardian user.', spec §8).
 */
export async function addGuardian(input: {
  userId: string;
  signupDto: GuardianSignupDto;
  skipResetPasswordMail: boolean;
}): Promise<AddGuardianOutcome> {
  try {
    const guardian = await api('/api/guardians', {
      json: { action: 'add-guardian', ...input },
      schema: addGuardianResponseSchema,
    });
    return { kind: 'added', guardian };
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) {
      const body = fieldErrorsBodySchema.safeParse(error.body);
      if (body.success) return { kind: 'invalid', errors: body.data.errors };
    }
    throw error;
  }
}
