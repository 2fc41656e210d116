import { PERSON_NAME_MAX } from '../app/constants.ts';
import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '../app/constants.ts';
import { signupMessages } from '../auth/auth.messages.ts';
import { settingsMessages } from './settings.messages.ts';

// Names reach the roster items staff and families replicate; their documents cap names at 150.
const NAME_MAX = PERSON_NAME_MAX;
const trimmed = z.string().trim();

/** Which notices the person wants pushed to their devices; all on until they say otherwise. */
export const notificationPreferencesSchema = z.object({
  bookings: z.boolean(),
  payments: z.boolean(),
  announcements: z.boolean(),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;
export const defaultNotificationPreferences: NotificationPreferences = {
  bookings: true,
  payments: true,
  announcements: true,
};

/** The profile a person edits about themselves (spec §3 Signup payload names). */
export const profileInputSchema = z.object({
  firstName: trimmed.min(1, signupMessages.firstNameRequired).max(NAME_MAX),
  middleName: trimmed.max(NAME_MAX).optional().default(''),
  lastName: trimmed.min(1, signupMessages.lastNameRequired).max(NAME_MAX),
});
export type ProfileInput = z.input<typeof profileInputSchema>;
export type ProfileUpdate = z.output<typeof profileInputSchema>;

/** spec §5 Signup password rule for the new one; never trimmed. */
export const changePasswordInputSchema = z.object({
  currentPassword: z.string().min(1, settingsMessages.currentPasswordRequired).max(1000),
  newPassword: z.string().min(PASSWORD_MIN_LENGTH, signupMessages.passwordTooShort).max(1000),
});
export type ChangePasswordInput = z.infer<typeof changePasswordInputSchema>;

/** POST /api/settings: the signed-in person's own settings, the operation named by `action`. */
export const settingsRequestSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('get-settings') }),
  z.object({ action: z.literal('update-profile'), ...profileInputSchema.shape }),
  z.object({ action: z.literal('change-password'), ...changePasswordInputSchema.shape }),
  z.object({
    action: z.literal('update-notification-preferences'),
    notificationPreferences: notificationPreferencesSchema,
  }),
]);
export type SettingsRequest = z.input<typeof settingsRequestSchema>;

/** get-settings and update-profile answer the settings as saved. */
export const settingsSchema = z.object({
  firstName: z.string(),
  middleName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  /** False for Google-only and child accounts: there is no current password to give. */
  hasPassword: z.boolean(),
  notificationPreferences: notificationPreferencesSchema,
});
export type Settings = z.infer<typeof settingsSchema>;

export const passwordChangedSchema = z.object({ ok: z.literal(true) });
export const notificationPreferencesResponseSchema = notificationPreferencesSchema;
