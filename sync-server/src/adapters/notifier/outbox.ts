import type { Db } from '../../db/open-database.ts';
import { deliverToDevices } from './device-delivery.ts';
import type { Notice, Notifier } from './port.ts';

/**
 * Embedded default and tests: notices are only recorded (listed on /dev/notifications), with
 * the devices of every kind they would have reached. Devices cannot subscribe to it.
 */
export class OutboxNotifier implements Notifier {
  readonly kind = 'outbox';
  readonly clientConfig = { kind: 'none' } as const;
  constructor(private readonly db: Db) {}

  send(notice: Notice) {
    return deliverToDevices(this.db, this.kind, ['fcm', 'webpush'], notice, async (devices) =>
      devices.map((device) => ({ tokenId: device.id, outcome: 'recorded' as const })),
    );
  }
}
