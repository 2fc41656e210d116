import {
  notificationPreferencesSchema,
  type NotificationPreferences,
} from '@platform/schema/settings/settings.zod';
import { settingsRequest, type SettingsOutcome } from './settings-request.ts';

/** POST /api/settings, action update-notification-preferences (kept in the user's attributes). */
export function updateNotificationPreferences(
  notificationPreferences: NotificationPreferences,
): Promise<SettingsOutcome<NotificationPreferences>> {
  return settingsRequest(
    { action: 'update-notification-preferences', notificationPreferences },
    notificationPreferencesSchema,
  );
}
