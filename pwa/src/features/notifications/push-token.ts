import type { NotificationConfig } from '@platform/schema/notifications/notifications.zod';
import type { AddNotificationTokenInput } from '@platform/schema/notifications/notifications.zod';
import { base64UrlToBytes, sameKey } from './notification-state.ts';

export type PushToken = Pick<AddNotificationTokenInput, 'kind' | 'token' | 'keys'>;
type Subscribable = Exclude<NotificationConfig, { kind: 'none' }>;

const READY_TIMEOUT_MS = 10_000;

export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'Notification' in window &&
    'serviceWorker' in navigator &&
    'PushManager' in window
  );
}

/** Our service worker once active; null where there is none (the dev server registers none). */
export async function activeRegistration(): Promise<ServiceWorkerRegistration | null> {
  const registration = await navigator.serviceWorker.getRegistration();
  if (!registration) return null;
  if (registration.active) return registration;
  return Promise.race([
    navigator.serviceWorker.ready,
    new Promise<null>((resolve) => window.setTimeout(() => resolve(null), READY_TIMEOUT_MS)),
  ]);
}

/** This device's address at the server's push service. Needs the permission granted. */
export function pushTokenFor(
  config: Subscribable,
  registration: ServiceWorkerRegistration,
): Promise<PushToken> {
  return config.kind === 'fcm'
    ? firebaseToken(config, registration)
    : webPushSubscription(config.vapidPublicKey, registration);
}

async function webPushSubscription(
  vapidPublicKey: string,
  registration: ServiceWorkerRegistration,
): Promise<PushToken> {
  const key = base64UrlToBytes(vapidPublicKey);
  let subscription = await registration.pushManager.getSubscription();
  // A subscription made for another key (the server's keys changed) cannot be reused.
  if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: key,
  });
  const keys = subscription.toJSON().keys;
  if (!keys?.p256dh || !keys.auth) throw new Error('the push subscription has no keys');
  return {
    kind: 'webpush',
    token: subscription.endpoint,
    keys: { p256dh: keys.p256dh, auth: keys.auth },
  };
}

/**
 * FCM's token for this browser, through our own service worker (it shows FCM's data messages
 * like Web Push ones). Firebase is loaded only here, never in the initial bundle.
 */
async function firebaseToken(
  config: Extract<NotificationConfig, { kind: 'fcm' }>,
  registration: ServiceWorkerRegistration,
): Promise<PushToken> {
  const [{ getApps, initializeApp }, messaging] = await Promise.all([
    import('firebase/app'),
    import('firebase/messaging'),
  ]);
  if (!(await messaging.isSupported())) throw new Error('Firebase messaging is not supported here');
  const app =
    getApps().find((candidate) => candidate.name === 'notifications') ??
    initializeApp(config.firebaseConfig, 'notifications');
  const token = await messaging.getToken(messaging.getMessaging(app), {
    serviceWorkerRegistration: registration,
    ...(config.vapidKey ? { vapidKey: config.vapidKey } : {}),
  });
  return { kind: 'fcm', token };
}
