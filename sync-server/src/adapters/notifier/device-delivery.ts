import { notificationOutbox } from '@platform/schema/db';
import type { NoticeOutcome, NoticeStatus } from '@platform/schema/notifications/notifications.zod';
import type { NotificationTokenKind } from '@platform/schema/notifications/notifications.zod';
import {
  pushPayloadSchema,
  type PushPayload,
} from '@platform/schema/notifications/push-payload.zod';
import type { Db } from '../../db/open-database.ts';
import {
  findLiveDevices,
  removeTokens,
  type NotificationToken,
} from '../../notifications/notifications.service.ts';
import type { Notice, Notifier } from './port.ts';

/** What one device's push service answered. `gone`: the registration no longer exists. */
export type DeviceResult = {
  tokenId: string;
  outcome: 'delivered' | 'recorded' | 'gone' | 'failed';
  error?: string;
};

type Deliver = (devices: NotificationToken[], payload: PushPayload) => Promise<DeviceResult[]>;

/**
 * The part every adapter shares: find the recipients' live devices of the kinds it can reach,
 * hand them to `deliver`, forget the registrations the push service says are gone, and record
 * one outbox row per recipient.
 */
export async function deliverToDevices(
  db: Db,
  adapter: Notifier['kind'],
  kinds: readonly NotificationTokenKind[],
  notice: Notice,
  deliver: Deliver,
): Promise<NoticeOutcome> {
  // Our own code builds notices: a bad one is a bug, not a device failure.
  const payload = pushPayloadSchema.parse({
    title: notice.title,
    body: notice.body,
    url: notice.url,
  });
  const userIds = [...new Set(notice.userIds)];
  const devices = await findLiveDevices(db, userIds, kinds);
  let results: DeviceResult[] = [];
  if (devices.length > 0) {
    try {
      results = await deliver(devices, payload);
    } catch (error) {
      // The whole batch failed (credentials, network): every device failed, none is gone.
      results = devices.map((device) => ({
        tokenId: device.id,
        outcome: 'failed',
        error: String(error),
      }));
    }
  }
  const gone = results
    .filter((result) => result.outcome === 'gone')
    .map((result) => result.tokenId);
  await removeTokens(db, gone);
  await recordNotices(db, adapter, notice, payload, userIds, devices, results);
  return {
    status: statusOf(results),
    deviceCount: devices.length,
    deliveredCount: results.filter((result) => result.outcome === 'delivered').length,
    removedCount: gone.length,
  };
}

function statusOf(results: readonly DeviceResult[]): NoticeStatus {
  if (results.length === 0) return 'no-devices';
  if (results.every((result) => result.outcome === 'recorded')) return 'recorded';
  const delivered = results.filter((result) => result.outcome === 'delivered').length;
  if (delivered === results.length) return 'sent';
  return delivered === 0 ? 'failed' : 'partial';
}

async function recordNotices(
  db: Db,
  adapter: Notifier['kind'],
  notice: Notice,
  payload: PushPayload,
  userIds: readonly string[],
  devices: readonly NotificationToken[],
  results: readonly DeviceResult[],
): Promise<void> {
  if (userIds.length === 0) return;
  const resultOf = new Map(results.map((result) => [result.tokenId, result]));
  const rows = userIds.map((userId) => {
    const own = devices
      .filter((device) => device.userId === userId)
      .map((device) => resultOf.get(device.id));
    const ownResults = own.filter((result): result is DeviceResult => result !== undefined);
    const errors = [
      ...new Set(ownResults.flatMap((result) => (result.error ? [result.error] : []))),
    ];
    return {
      orgId: notice.orgId,
      userId,
      title: payload.title,
      body: payload.body,
      url: payload.url,
      adapter,
      deviceCount: own.length,
      status: statusOf(ownResults),
      error: errors.length > 0 ? errors.join('; ').slice(0, 1000) : null,
    };
  });
  await db.insert(notificationOutbox).values(rows);
}

/** Runs `task` over `items` with at most `limit` at a time, keeping the order of the answers. */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const answers: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      answers[index] = await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return answers;
}
