import {
  brandingSettingsResponseSchema,
  type BrandingSettings,
  type BrandingSettingsResponse,
} from '@platform/schema/branding/branding.zod';
import { fieldErrorsBodySchema, type FieldError } from '@platform/schema/auth/auth.zod';
import { api, ApiError, NetworkError } from '../../../lib/api.ts';

export const getBrandingSettings = (orgId: string, signal?: AbortSignal) =>
  api(`/api/organizations/${orgId}/branding`, {
    schema: brandingSettingsResponseSchema,
    ...(signal ? { signal } : {}),
  });

export type SaveOutcome =
  { ok: true; settings: BrandingSettingsResponse } | { ok: false; errors: FieldError[] };

/** The server's field errors come back as a value; anything else throws. */
async function withFieldErrors(
  request: () => Promise<BrandingSettingsResponse>,
): Promise<SaveOutcome> {
  try {
    return { ok: true, settings: await request() };
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) {
      const parsed = fieldErrorsBodySchema.safeParse(error.body);
      if (parsed.success) return { ok: false, errors: parsed.data.errors };
      return { ok: false, errors: [{ field: 'root', message: error.message }] };
    }
    throw error;
  }
}

export const saveBrandingSettings = (orgId: string, settings: BrandingSettings) =>
  withFieldErrors(() =>
    api(`/api/organizations/${orgId}/branding`, {
      method: 'PUT',
      json: settings,
      schema: brandingSettingsResponseSchema,
    }),
  );

export const removeLogo = (orgId: string) =>
  api(`/api/organizations/${orgId}/logo`, {
    method: 'DELETE',
    schema: brandingSettingsResponseSchema,
  });

/** The file is the request body; the server turns it into the app's icons. */
export async function uploadLogo(orgId: string, file: File): Promise<SaveOutcome> {
  let response: Response;
  try {
    response = await fetch(`/api/organizations/${orgId}/logo`, {
      method: 'PUT',
      credentials: 'same-origin',
      headers: {
        'content-type': file.type || 'application/octet-stream',
        accept: 'application/json',
      },
      body: file,
    });
  } catch {
    throw new NetworkError('You appear to be offline.');
  }
  const body: unknown = await response.json().catch(() => null);
  if (response.ok) return { ok: true, settings: brandingSettingsResponseSchema.parse(body) };
  if (response.status === 400 || response.status === 413) {
    const message =
      typeof body === 'object' && body && 'message' in body
        ? String(body.message)
        : 'The logo could not be used.';
    return { ok: false, errors: [{ field: 'logo', message }] };
  }
  throw new ApiError(response.status, body);
}
