/**
 * The push services browsers subscribe with (Chrome and most Chromium browsers: FCM; Firefox:
 * Mozilla; Edge: Windows; Safari: Apple). A Web Push endpoint is a URL the device hands us and
 * the server then POSTs to: without this list any signed-in person could make the server send
 * requests to any host (server-side request forgery). A browser on another service is refused.
 */
const pushServiceHosts = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  'push.services.mozilla.com',
  'notify.windows.com',
  'push.apple.com',
];

export function isKnownPushService(endpoint: string): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.port !== '') return false;
  return pushServiceHosts.some(
    (host) => url.hostname === host || url.hostname.endsWith(`.${host}`),
  );
}
