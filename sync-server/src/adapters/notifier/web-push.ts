import type { Agent } from 'node:https';
import webpush from 'web-push';
import type { Db } from '../../db/open-database.ts';
import type { NotificationToken } from '../../notifications/notifications.service.ts';
import { deliverToDevices, mapLimited, type DeviceResult } from './device-delivery.ts';
import type { Notice, Notifier } from './port.ts';

export type VapidDetails = { subject: string; publicKey: string; privateKey: string };

/** How long a push service keeps a notice for a device that is offline. */
const TTL_SECONDS = 24 * 60 * 60;
const PARALLEL_REQUESTS = 8;

/**
 * Standard Web Push with VAPID, where Firebase is not configured: web-push encrypts the payload
 * for each subscription and POSTs it to the subscription's endpoint. A 404 or 410 means the
 * subscription is gone (the person revoked permission, the browser dropped it).
 */
export class WebPushNotifier implements Notifier {
  readonly kind = 'web-push';
  readonly clientConfig;

  constructor(
    private readonly db: Db,
    private readonly vapid: VapidDetails,
    /** Tests trust a local push service's certificate through `agent`. */
    private readonly options: { agent?: Agent; timeoutMs?: number } = {},
  ) {
    this.clientConfig = { kind: 'webpush', vapidPublicKey: vapid.publicKey } as const;
  }

  send(notice: Notice) {
    return deliverToDevices(this.db, this.kind, ['webpush'], notice, (devices, payload) => {
      const body = JSON.stringify(payload);
      return mapLimited(devices, PARALLEL_REQUESTS, (device) => this.deliver(device, body));
    });
  }

  private async deliver(device: NotificationToken, body: string): Promise<DeviceResult> {
    if (!device.keys)
      return { tokenId: device.id, outcome: 'gone', error: 'subscription without keys' };
    try {
      await webpush.sendNotification({ endpoint: device.token, keys: device.keys }, body, {
        vapidDetails: this.vapid,
        TTL: TTL_SECONDS,
        timeout: this.options.timeoutMs ?? 10_000,
        ...(this.options.agent ? { agent: this.options.agent } : {}),
      });
      return { tokenId: device.id, outcome: 'delivered' };
    } catch (error) {
      if (error instanceof webpush.WebPushError) {
        const gone = error.statusCode === 404 || error.statusCode === 410;
        return {
          tokenId: device.id,
          outcome: gone ? 'gone' : 'failed',
          error: `push service answered ${error.statusCode}`,
        };
      }
      return { tokenId: device.id, outcome: 'failed', error: String(error) };
    }
  }
}
