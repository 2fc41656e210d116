import {
  notificationConfigSchema,
  type NotificationConfig,
} from '@platform/schema/notifications/notifications.zod';
import { api } from '../../../lib/api.ts';

/** POST /api/notifications get-notification-config: how this server's devices subscribe. */
export function getNotificationConfig(
  deviceId: string,
  signal?: AbortSignal,
): Promise<NotificationConfig> {
  return api('/api/notifications', {
    json: { action: 'get-notification-config', deviceId },
    schema: notificationConfigSchema,
    ...(signal ? { signal } : {}),
  });
}
