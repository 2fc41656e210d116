/// <reference lib="webworker" />
import { notificationTargetUrl } from '@platform/schema/notifications/notification-url.rules';
import { noticeFromPushText } from './push-payload.ts';

/**
 * Push notifications in the service worker: a push (our Web Push payload or an FCM message)
 * becomes a notification; a click focuses the app window already at its page or opens one.
 * Only pages of our own origin are ever opened.
 */
export function registerPushHandlers(sw: ServiceWorkerGlobalScope): void {
  sw.addEventListener('push', (event) => {
    const notice = noticeFromPushText(event.data?.text() ?? null, sw.location.origin);
    event.waitUntil(
      sw.registration.showNotification(notice.title, {
        body: notice.body,
        icon: notice.icon,
        data: { url: notice.url },
      }),
    );
  });

  sw.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const data = event.notification.data as { url?: unknown } | null;
    event.waitUntil(focusOrOpen(sw, notificationTargetUrl(data?.url, sw.location.origin)));
  });
}

async function focusOrOpen(sw: ServiceWorkerGlobalScope, url: string): Promise<void> {
  const windows = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((client) => client.url === url);
  if (open) {
    await open.focus();
    return;
  }
  await sw.clients.openWindow(url);
}
