import { randomUUID } from 'node:crypto';
import type { Messaging, MulticastMessage } from 'firebase-admin/messaging';
import type { FirebaseWebConfig } from '@platform/schema/notifications/notifications.zod';
import type { PushPayload } from '@platform/schema/notifications/push-payload.zod';
import type { Db } from '../../db/open-database.ts';
import { deliverToDevices, type DeviceResult } from './device-delivery.ts';
import type { Notice, Notifier } from './port.ts';

/** The one call we make; tests inject a stand-in (FCM's host is fixed inside firebase-admin). */
export type FcmMessaging = Pick<Messaging, 'sendEachForMulticast'>;

export type FirebaseServiceAccount = {
  project_id: string;
  client_email: string;
  private_key: string;
};

/** FCM's multicast limit per request. */
const MULTICAST_LIMIT = 500;
/** Answers meaning the token will never work again (Firebase's own advice: delete it). */
const goneCodes = new Set([
  'messaging/registration-token-not-registered',
  'messaging/invalid-registration-token',
]);

/**
 * A data message (strings only): our service worker shows it, the same way as a Web Push
 * payload, rather than Firebase's SDK. Urgency high so a phone wakes up for it.
 */
export function fcmMessage(tokens: string[], payload: PushPayload): MulticastMessage {
  const data: Record<string, string> = {
    title: payload.title,
    body: payload.body,
    url: payload.url,
  };
  if (payload.icon) data.icon = payload.icon;
  return { tokens, data, webpush: { headers: { Urgency: 'high', TTL: String(24 * 60 * 60) } } };
}

/** FCM through firebase-admin; tokens FCM calls unregistered or invalid are forgotten. */
export class FirebaseNotifier implements Notifier {
  readonly kind = 'firebase';
  readonly clientConfig;

  constructor(
    private readonly db: Db,
    private readonly messaging: FcmMessaging,
    web: { firebaseConfig: FirebaseWebConfig; vapidKey: string | null },
    private readonly onClose?: () => Promise<void>,
  ) {
    this.clientConfig = { kind: 'fcm', ...web } as const;
  }

  send(notice: Notice) {
    return deliverToDevices(this.db, this.kind, ['fcm'], notice, async (devices, payload) => {
      const results: DeviceResult[] = [];
      for (let start = 0; start < devices.length; start += MULTICAST_LIMIT) {
        const batch = devices.slice(start, start + MULTICAST_LIMIT);
        const answer = await this.messaging.sendEachForMulticast(
          fcmMessage(
            batch.map((device) => device.token),
            payload,
          ),
        );
        batch.forEach((device, index) => {
          const response = answer.responses[index];
          if (response?.success) return results.push({ tokenId: device.id, outcome: 'delivered' });
          const code = response?.error?.code ?? 'no answer';
          results.push({
            tokenId: device.id,
            outcome: goneCodes.has(code) ? 'gone' : 'failed',
            error: code,
          });
        });
      }
      return results;
    });
  }

  async close() {
    await this.onClose?.();
  }
}

/** firebase-admin is loaded only where Firebase is configured (it is large). */
export async function createFirebaseNotifier(
  db: Db,
  serviceAccount: FirebaseServiceAccount,
  web: { firebaseConfig: FirebaseWebConfig; vapidKey: string | null },
): Promise<FirebaseNotifier> {
  const { initializeApp, cert, deleteApp } = await import('firebase-admin/app');
  const { getMessaging } = await import('firebase-admin/messaging');
  // A named app: two servers in one process (tests) must not share the default one.
  const firebaseApp = initializeApp(
    {
      credential: cert({
        projectId: serviceAccount.project_id,
        clientEmail: serviceAccount.client_email,
        privateKey: serviceAccount.private_key,
      }),
      projectId: serviceAccount.project_id,
    },
    `notifier-${randomUUID()}`,
  );
  return new FirebaseNotifier(db, getMessaging(firebaseApp), web, () => deleteApp(firebaseApp));
}
