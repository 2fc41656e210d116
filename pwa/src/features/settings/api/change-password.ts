import {
  passwordChangedSchema,
  type ChangePasswordInput,
} from '@platform/schema/settings/settings.zod';
import { settingsRequest, type SettingsOutcome } from './settings-request.ts';

/** POST /api/settings, action change-password: other sessions are signed out. */
export function changePassword(input: ChangePasswordInput): Promise<SettingsOutcome<{ ok: true }>> {
  return settingsRequest({ action: 'change-password', ...input }, passwordChangedSchema);
}
