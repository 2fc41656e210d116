import { useCallback, useSyncExternalStore } from 'react';
import { INSTALL_PROMPT_WAIT_MS } from '@platform/schema/app/constants';

/** Chromium's install event; not in TypeScript's DOM library. */
interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform: string }>;
}

let deferred: BeforeInstallPromptEvent | null = null;
let waited = false;
let installed = false;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

const dismissedKey = (brandId: string) => `install-prompt-dismissed:${brandId}`;

function isStandalone(): boolean {
  const iosStandalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return iosStandalone || window.matchMedia('(display-mode: standalone)').matches;
}

function wasDismissed(brandId: string): boolean {
  try {
    return localStorage.getItem(dismissedKey(brandId)) !== null;
  } catch {
    return false;
  }
}

/**
 * Call once at start-up, before React renders: Chromium may fire beforeinstallprompt early.
 * spec §1/§9: the offer appears INSTALL_PROMPT_WAIT_MS after the browser says it may.
 */
export function listenForInstallPrompt(): void {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    deferred = event as BeforeInstallPromptEvent;
    window.setTimeout(() => {
      waited = true;
      notify();
    }, INSTALL_PROMPT_WAIT_MS);
  });
  window.addEventListener('appinstalled', () => {
    installed = true;
    deferred = null;
    notify();
  });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useInstallPrompt(brandId: string) {
  const canInstall = useSyncExternalStore(
    subscribe,
    () => waited && deferred !== null && !installed && !wasDismissed(brandId) && !isStandalone(),
    () => false,
  );
  const install = useCallback(async () => {
    const event = deferred;
    if (!event) return;
    // The event can prompt only once, whatever the answer.
    deferred = null;
    notify();
    await event.prompt();
    await event.userChoice;
  }, []);
  const dismiss = useCallback(() => {
    try {
      localStorage.setItem(dismissedKey(brandId), new Date().toISOString());
    } catch {
      deferred = null; // nowhere to remember it: at least hide it for this page
    }
    notify();
  }, [brandId]);
  return { canInstall, install, dismiss };
}
