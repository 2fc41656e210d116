import type { ChildEntry, FieldError } from '@platform/schema/auth/auth.zod';
import {
  createChildrenResponseSchema,
  familyFormInvalidSchema,
  type FamilyMember,
} from '@platform/schema/families/families.zod';
import { api, ApiError } from '../../../lib/api.ts';

export type CreateChildrenOutcome =
  | { kind: 'created'; children: FamilyMember[] }
  | { kind: 'invalid'; message: string; errors: FieldError[] };

/**
 * spec §7 POST /api/auth/create-account, action create-children. A 400 answers
 * `{ message: 'The form is invalid', errors }` (spec §8); other failures throw.
 */
export async function createChildren(input: {
  guardianUserId: string;
  signupDtos: ChildEntry[];
  skipResetPasswordMail: boolean;
}): Promise<CreateChildrenOutcome> {
  try {
    const children = await api('/api/auth/create-account', {
      json: { action: 'create-children', ...input },
      schema: createChildrenResponseSchema,
    });
    return { kind: 'created', children };
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) {
      const body = familyFormInvalidSchema.safeParse(error.body);
      if (body.success) return { kind: 'invalid', ...body.data };
    }
    throw error;
  }
}
