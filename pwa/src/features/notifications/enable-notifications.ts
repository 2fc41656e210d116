import { notificationMessages } from '@platform/schema/notifications/notifications.messages';
import type { NotificationConfig } from '@platform/schema/notifications/notifications.zod';
import { addNotificationToken } from './api/add-notification-token.ts';
import { getNotificationConfig } from './api/get-notification-config.ts';
import { deviceId, enabledHere, rememberEnabled } from './device-id.ts';
import { activeRegistration, pushSupported, pushTokenFor } from './push-token.ts';

export type EnableOutcome =
  'on' | 'blocked' | 'dismissed' | 'unsupported' | 'unavailable' | 'failed';

/**
 * spec §4 Notification permission: default, then granted (token stored) or denied. Call it
 * straight from a click: the permission prompt must come first, while the click still counts
 * as a user gesture (Safari asks only then). `knownConfig` is the server's answer fetched
 * beforehand, if there is one; without it, it is asked for after the prompt.
 */
export async function enableNotifications(
  userId: string,
  knownConfig: NotificationConfig | null,
): Promise<EnableOutcome> {
  if (!pushSupported()) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') {
    // spec §8: a refused permission is only logged.
    console.warn(notificationMessages.permissionRefusedLog, permission);
    return permission === 'denied' ? 'blocked' : 'dismissed';
  }
  try {
    const id = deviceId();
    const config = knownConfig ?? (await getNotificationConfig(id));
    if (config.kind === 'none') return 'unavailable';
    const registration = await activeRegistration();
    if (!registration) return 'unsupported';
    const token = await pushTokenFor(config, registration);
    await addNotificationToken({ ...token, deviceId: id });
    rememberEnabled(userId, token.token);
    return 'on';
  } catch (error) {
    console.error('Turning on notifications failed', error);
    return 'failed';
  }
}

/**
 * On a later visit by someone who turned notifications on here: send the device's current
 * token again when it changed (tokens rotate) or the server no longer counts it (signed out
 * and back in, or a profile switch started a new session). Never prompts.
 */
export async function refreshNotificationRegistration(userId: string): Promise<void> {
  const here = enabledHere(userId);
  if (!here.enabled || !pushSupported() || Notification.permission !== 'granted') return;
  try {
    const id = deviceId();
    const config = await getNotificationConfig(id);
    if (config.kind === 'none') return;
    const registration = await activeRegistration();
    if (!registration) return;
    const token = await pushTokenFor(config, registration);
    if (config.deviceRegistered && token.token === here.lastToken) return;
    await addNotificationToken({ ...token, deviceId: id });
    rememberEnabled(userId, token.token);
  } catch (error) {
    console.warn('Could not refresh this device’s notification registration', error);
  }
}
