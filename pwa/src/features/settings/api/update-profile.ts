import {
  settingsSchema,
  type ProfileInput,
  type Settings,
} from '@platform/schema/settings/settings.zod';
import { settingsRequest, type SettingsOutcome } from './settings-request.ts';

/** POST /api/settings, action update-profile: the names, also on every roster item. */
export function updateProfile(input: ProfileInput): Promise<SettingsOutcome<Settings>> {
  return settingsRequest({ action: 'update-profile', ...input }, settingsSchema);
}
