import {
  notificationOkSchema,
  type AddNotificationTokenInput,
} from '@platform/schema/notifications/notifications.zod';
import { api } from '../../../lib/api.ts';

/** spec §7 POST /api/notifications add-notification-token: this device receives my notices. */
export async function addNotificationToken(
  input: Omit<AddNotificationTokenInput, 'action'>,
): Promise<void> {
  await api('/api/notifications', {
    json: { action: 'add-notification-token', ...input },
    schema: notificationOkSchema,
  });
}
