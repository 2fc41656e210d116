import { notificationMessages } from '@platform/schema/notifications/notifications.messages';
import {
  notificationTokenKinds,
  type NotificationConfig,
  type NotificationsRequest,
  type TestNoticeAnswer,
} from '@platform/schema/notifications/notifications.zod';
import type { Notifier } from '../adapters/notifier/port.ts';
import type { Db } from '../db/open-database.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { ValidationFailed } from '../plugins/domain-errors.ts';
import type { SessionContext } from '../plugins/session.ts';
import {
  findLiveDevices,
  isDeviceRegistered,
  removeDeviceToken,
  removeSessionTokens,
  upsertDeviceToken,
} from './notification-tokens.repository.ts';
import { isKnownPushService } from './push-services.ts';

// The notifier's device delivery (adapters/notifier) reads the registered devices and drops
// the ones a push service says are gone (decision 0053: through here, not the repository).
export {
  findLiveDevices,
  removeTokens,
  type NotificationToken,
} from './notification-tokens.repository.ts';

type AddInput = Extract<NotificationsRequest, { action: 'add-notification-token' }>;

/** spec §3/§7 add-notification-token: this device receives the signed-in person's notices. */
export async function registerDevice(
  db: Db,
  session: SessionContext,
  input: AddInput,
  userAgent: string | undefined,
): Promise<void> {
  if (input.kind === 'webpush' && !isKnownPushService(input.token)) {
    throw new ValidationFailed(notificationMessages.unknownPushService);
  }
  await upsertDeviceToken(db, {
    userId: session.user.id,
    sessionId: session.sessionId,
    deviceId: input.deviceId,
    kind: input.kind,
    token: input.token,
    keys: input.kind === 'webpush' ? (input.keys ?? null) : null,
    userAgent: userAgent?.slice(0, 300) ?? null,
  });
}

export async function forgetDevice(
  db: Db,
  session: SessionContext,
  deviceId: string,
): Promise<void> {
  await removeDeviceToken(db, session.user.id, deviceId);
}

export async function notificationConfigFor(
  db: Db,
  notifier: Notifier,
  session: SessionContext,
  deviceId: string | undefined,
): Promise<NotificationConfig> {
  const deviceRegistered = deviceId
    ? await isDeviceRegistered(db, session.user.id, deviceId)
    : false;
  return { ...notifier.clientConfig, deviceRegistered };
}

/**
 * A test notice to the caller's own devices (the caller's claim is checked by the route),
 * sent by the push-notice job: the request only counts the devices and queues it.
 */
export async function sendTestNotification(
  db: Db,
  jobs: Pick<JobQueue, 'enqueue'>,
  notifier: Notifier,
  session: SessionContext,
  orgId: string,
): Promise<TestNoticeAnswer> {
  const devices = await findLiveDevices(db, [session.user.id], notificationTokenKinds);
  const recordedOnly = notifier.kind === 'outbox';
  if (devices.length === 0) return { status: 'no-devices', deviceCount: 0, recordedOnly };
  await jobs.enqueue('push-notice', {
    orgId,
    userIds: [session.user.id],
    title: notificationMessages.testTitle,
    body: notificationMessages.testBody,
    url: '/dashboard',
  });
  return { status: 'queued', deviceCount: devices.length, recordedOnly };
}

/**
 * A session that ends (sign-out, or a staff device turning into a kiosk) takes its devices'
 * registrations with it: the device stops receiving the person's notices. Sessions are
 * revoked, not deleted, so nothing else would remove them.
 */
export async function forgetSessionDevices(db: Db, sessionId: string): Promise<void> {
  await removeSessionTokens(db, sessionId);
}
