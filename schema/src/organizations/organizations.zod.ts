import { z } from 'zod';
import { ORG_NAME_MAX } from '../app/constants.ts';
import { platforms } from './claims.ts';
import { isValidTimeZone } from './timezone.rules.ts';

/** New organisations start on this zone until staff set their own (spec §7 setting org timezone). */
export const DEFAULT_ORG_TIMEZONE = 'America/New_York';

export const organizationMessages = {
  nameTooShort: 'Name must be at least 3 characters',
  created: 'Organization created',
  invalidTimezone: 'This is not a valid time zone.',
} as const;

/** spec §5 New organisation, §7 Organisation creation (companyName, companyLocation). */
export const createOrganizationInputSchema = z.object({
  companyName: z
    .string()
    .trim()
    .min(3, organizationMessages.nameTooShort)
    .max(ORG_NAME_MAX, `Name must be at most ${ORG_NAME_MAX} characters`),
  companyLocation: z.string().trim().max(200).optional(),
});
export type CreateOrganizationInput = z.infer<typeof createOrganizationInputSchema>;

export const orgAttributesSchema = z.object({
  logoUrl: z.string().optional(),
  coachingBusinessName: z.string().optional(),
  timezone: z.string().optional(),
});
export const orgSchema = z.object({
  id: z.uuid(),
  platform: z.enum(platforms),
  attributes: orgAttributesSchema,
});

/** spec §7 setting org timezone. */
export const setOrganizationTimezoneInputSchema = z.object({
  orgId: z.uuid(),
  timezone: z.string().trim().refine(isValidTimeZone, organizationMessages.invalidTimezone),
});
export type SetOrganizationTimezoneInput = z.infer<typeof setOrganizationTimezoneInputSchema>;

export const createdOrganizationSchema = z.object({ id: z.uuid(), label: z.string() });
