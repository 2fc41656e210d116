import { z } from 'zod';

/** `?error=` values the server puts on /auth/login after a failed Google sign-in. */
export const googleLoginErrors = {
  unavailable: 'google-unavailable',
  invalid: 'google',
} as const;

/**
 * spec §7 POST /auth/login-with-google (form). `org_fields` is the organisation step of the
 * signup form as JSON (createOrganizationInputSchema); a new Google user with it becomes the
 * owner of that organisation.
 */
export const googleLoginFormSchema = z.object({
  id_token: z.string().min(1),
  redirect_to: z.string().optional(),
  org_fields: z.string().optional(),
});

/** spec §7 POST /auth/external/login/google: Google Identity Services redirect mode. */
export const googleRedirectFormSchema = z
  .object({
    credential: z.string().min(1).optional(),
    id_token: z.string().min(1).optional(),
    g_csrf_token: z.string().optional(),
  })
  .refine((form) => form.credential ?? form.id_token, {
    message: 'credential is required',
    path: ['credential'],
  });
