import { z } from 'zod';
import { isValidTimeZone } from '../organizations/timezone.rules.ts';
import { documentIdSchema } from '../sync/ids.ts';
import { isoTimeSchema } from '../sync/iso-time.ts';

export const brandingMessages = {
  appNameRequired: 'App name is required.',
  appNameTooLong: 'App name must be at most 45 characters.',
  shortNameRequired: 'Short name is required.',
  shortNameTooLong:
    'Short name must be at most 12 characters (it sits under the home-screen icon).',
  invalidColor: 'Use a colour such as #0f766e.',
  invalidTimezone: 'This is not a valid time zone.',
  saved: 'Branding saved.',
  logoSaved: 'Logo uploaded.',
  logoNotAnImage: 'The logo must be a PNG, JPEG, WebP, GIF or SVG image.',
  logoTooLarge: 'The logo must be at most 5 MB.',
  logoTooSmall: 'The logo must be at least 192 × 192 pixels (512 × 512 looks best).',
  logoTooManyPixels: 'The logo is too large to draw: use an image under 50 megapixels.',
  logoRemoved: 'Logo removed.',
} as const;

export const LOGO_MAX_BYTES = 5 * 1024 * 1024;
export const LOGO_MIN_PIXELS = 192;
export const APP_NAME_MAX = 45;
export const SHORT_NAME_MAX = 12;

const hexColor = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, brandingMessages.invalidColor)
  .transform((value) => value.toLowerCase());

/** What staff with manage-org-branding set (issue 5 Branding and install). */
export const brandingSettingsSchema = z.object({
  appName: z
    .string()
    .trim()
    .min(1, brandingMessages.appNameRequired)
    .max(APP_NAME_MAX, brandingMessages.appNameTooLong),
  shortName: z
    .string()
    .trim()
    .min(1, brandingMessages.shortNameRequired)
    .max(SHORT_NAME_MAX, brandingMessages.shortNameTooLong),
  themeColor: hexColor,
  backgroundColor: hexColor,
  timezone: z.string().trim().refine(isValidTimeZone, brandingMessages.invalidTimezone),
});
export type BrandingSettings = z.infer<typeof brandingSettingsSchema>;
export type BrandingSettingsInput = z.input<typeof brandingSettingsSchema>;

/**
 * An organisation's public face (spec §3 Org attributes logoUrl, Branded app context): what its
 * sign-in pages and its installed app show. Public — it is what the manifest says anyway.
 */
export const publicBrandingSchema = z.object({
  orgId: z.uuid(),
  appName: z.string(),
  shortName: z.string(),
  themeColor: z.string(),
  backgroundColor: z.string(),
  /** The 192 px icon made from the uploaded logo; null without a logo. */
  logoUrl: z.string().nullable(),
  manifestUrl: z.string(),
});
export type PublicBranding = z.infer<typeof publicBrandingSchema>;

/** GET /api/organizations/:orgId/branding (staff): the settings plus the timezone. */
export const brandingSettingsResponseSchema = publicBrandingSchema.extend({
  timezone: z.string(),
  /** Where customers open (and install) the branded app. */
  customerAppPath: z.string(),
});
export type BrandingSettingsResponse = z.infer<typeof brandingSettingsResponseSchema>;

/** The replicated organisation branding (read-only on devices): the branded app offline. */
export const orgBrandingDocSchema = z.object({
  id: documentIdSchema,
  orgId: z.uuid(),
  appName: z.string().max(200),
  shortName: z.string().max(60),
  themeColor: z.string().max(20),
  backgroundColor: z.string().max(20),
  logoUrl: z.string().max(300).nullable(),
  updatedAt: isoTimeSchema,
});
export type OrgBrandingDoc = z.infer<typeof orgBrandingDocSchema>;

/** URL paths of an organisation's branded assets; both sides build them the same way. */
export const brandingPaths = {
  customerApp: (orgId: string) => `/dashboard-customer/${orgId}`,
  manifest: (orgId: string) => `/manifests/${orgId}.webmanifest`,
  icon: (orgId: string, version: string, file: BrandIconFile) =>
    `/org-assets/${orgId}/${version}/${file}`,
} as const;

/** The file names of manifest-templates/ (its icons array), so one template serves every brand. */
export const brandIconFiles = ['icon-192.png', 'icon-512.png', 'icon-maskable-512.png'] as const;
export type BrandIconFile = (typeof brandIconFiles)[number];
