import type { z } from 'zod';
import { fieldErrorsBodySchema, type FieldError } from '@platform/schema/auth/auth.zod';
import type { SettingsRequest } from '@platform/schema/settings/settings.zod';
import { api, ApiError } from '../../../lib/api.ts';

export type SettingsOutcome<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

/**
 * POST /api/settings with one action. A 400 with field errors comes back as `{ ok: false }`
 * for the form to show beside its fields; every other failure throws.
 */
export async function settingsRequest<T>(
  request: SettingsRequest,
  schema: z.ZodType<T>,
  signal?: AbortSignal,
): Promise<SettingsOutcome<T>> {
  try {
    const value = await api('/api/settings', {
      json: request,
      schema,
      ...(signal ? { signal } : {}),
    });
    return { ok: true, value };
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) {
      const body = fieldErrorsBodySchema.safeParse(error.body);
      if (body.success) return { ok: false, errors: body.data.errors };
    }
    throw error;
  }
}
