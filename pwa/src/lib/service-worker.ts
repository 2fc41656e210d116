import { useSyncExternalStore } from 'react';
import type { Workbox } from 'workbox-window';

let workbox: Workbox | null = null;
let updateWaiting = false;
const listeners = new Set<() => void>();

/** Registers /sw.js (production builds only; the dev server has no service worker). */
export async function registerServiceWorker(): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  const { Workbox } = await import('workbox-window');
  workbox = new Workbox('/sw.js');
  workbox.addEventListener('waiting', () => {
    updateWaiting = true;
    listeners.forEach((listener) => listener());
  });
  try {
    await workbox.register();
  } catch (error) {
    console.warn('Service worker registration failed; the app works online only.', error);
  }
}

/** A new version has been downloaded and waits for the open tabs to let it take over. */
export function useUpdateAvailable(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => updateWaiting,
    () => false,
  );
}

/** Lets the waiting worker take over (sw.ts handles SKIP_WAITING), then reloads onto it. */
export function applyUpdate(): void {
  if (!workbox) return;
  workbox.addEventListener('controlling', () => window.location.reload());
  workbox.messageSkipWaiting();
}
