/// <reference lib="webworker" />
import '../lib/zod-without-eval.ts';
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  matchPrecache,
  precacheAndRoute,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { ExpirationPlugin } from 'workbox-expiration';
import { CacheFirst, NetworkFirst, NetworkOnly, StaleWhileRevalidate } from 'workbox-strategies';
import { outsideServicesOf } from '@platform/schema/app/outside-services.rules';
import { API_ME_CACHE, BRAND_ASSETS_CACHE, MANIFEST_CACHE } from '../lib/cache-names.ts';
import { registerPushHandlers } from './push.ts';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<{ url: string; revision: string | null }>;
};

// The app shell is precached; every client route opens offline after one visit.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

/** Paths the server answers itself; navigations to them are never served the app shell. */
const serverOwned = [
  /^\/api\//,
  /^\/auth\/logout/,
  /^\/auth\/external\//,
  /^\/dev\//,
  /^\/healthz/,
];
// Pages that load an outside service (Google sign-in) carry their own Content-Security-Policy,
// which the cached shell's does not allow: fetch them from the server, and fall back to the
// cached shell (which says it is offline) only without a network.
registerRoute(
  ({ request, url }) => request.mode === 'navigate' && outsideServicesOf(url.pathname).length > 0,
  new NetworkOnly({
    plugins: [{ handlerDidError: async () => (await matchPrecache('/index.html')) ?? Response.error() }],
  }),
);
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: serverOwned }),
);

// The manifests (the platform's and each organisation's) and the default icons: fresh when
// online, from cache when not.
registerRoute(
  ({ url }) =>
    url.pathname === '/manifest.webmanifest' ||
    url.pathname.startsWith('/manifests/') ||
    url.pathname.startsWith('/icons/'),
  new StaleWhileRevalidate({ cacheName: MANIFEST_CACHE }),
);

// An organisation's logo icons: their URLs carry the logo's version and never change content.
registerRoute(
  ({ url }) => url.pathname.startsWith('/org-assets/'),
  new CacheFirst({
    cacheName: BRAND_ASSETS_CACHE,
    plugins: [new ExpirationPlugin({ maxEntries: 60, maxAgeSeconds: 365 * 24 * 60 * 60 })],
  }),
);

// An organisation's public branding (its sign-in pages and install offer, also offline).
registerRoute(
  ({ url }) => url.pathname.startsWith('/api/branding/'),
  new NetworkFirst({ cacheName: BRAND_ASSETS_CACHE, networkTimeoutSeconds: 3 }),
);

// The signed-in user, so the shell can draw the right navigation offline. A 401 means the
// session is over: forget the copy so an offline visit never shows the previous person.
registerRoute(
  ({ url }) => url.pathname === '/api/me',
  new NetworkFirst({
    cacheName: API_ME_CACHE,
    networkTimeoutSeconds: 3,
    plugins: [
      {
        fetchDidSucceed: async ({ request, response }) => {
          if (response.status === 401) await (await caches.open(API_ME_CACHE)).delete(request);
          return response;
        },
      },
    ],
  }),
);

// The first install takes over the open page at once, so it works offline without a reload.
// Later versions wait for the page to say SKIP_WAITING (the 'Update available' toast).
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

registerPushHandlers(self);

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
