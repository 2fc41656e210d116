import { z } from 'zod';
import {
  createdOrganizationSchema,
  type CreateOrganizationInput,
} from '@platform/schema/organizations/organizations.zod';
import { fieldErrorSchema, type FieldError } from '@platform/schema/auth/auth.zod';
import { api, ApiError } from '../../../lib/api.ts';

export type CreateOrganizationResult =
  | { ok: true; organization: z.infer<typeof createdOrganizationSchema> }
  | { ok: false; errors: FieldError[] };

const validationAnswerSchema = z.object({ errors: z.array(fieldErrorSchema) });

/** POST /api/organizations → 201 {id, label} | 400 {errors: [{field, message}]}. */
export async function createOrganization(
  input: CreateOrganizationInput,
): Promise<CreateOrganizationResult> {
  try {
    const json: CreateOrganizationInput = {
      companyName: input.companyName,
      ...(input.companyLocation ? { companyLocation: input.companyLocation } : {}),
    };
    const organization = await api('/api/organizations', {
      json,
      schema: createdOrganizationSchema,
    });
    return { ok: true, organization };
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) {
      const answer = validationAnswerSchema.safeParse(error.body);
      if (answer.success) return { ok: false, errors: answer.data.errors };
    }
    throw error;
  }
}
