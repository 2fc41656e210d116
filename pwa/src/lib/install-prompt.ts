import { useCallback, useSyncExternalStore } from 'react';
import { INSTALL_PROMPT_WAIT_MS } from '@platform/schema/app/constants';

/** Chromium's install event; not in TypeScript's DOM library. */
interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform: string }>;
}

let deferred: BeforeInstallPromptEvent | null = null;
let waited = false;
/** iOS Safari never fires beforeinstallprompt: it gets Add to Home Screen instructions. */
let iosInstructions = false;
let installed = false;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

const dismissedKey = (brandId: string) => `install-prompt-dismissed:${brandId}`;

/**
 * Safari on an iPhone or iPad, where installing is Share → Add to Home Screen and no event
 * ever fires. iPadOS reports a Mac, told apart by its touch screen. Chrome, Firefox and Edge
 * on iOS name themselves (CriOS, FxiOS, EdgiOS).
 */
export function isIosSafari(userAgent: string, maxTouchPoints: number): boolean {
  const iPhoneOrIPad =
    /iPhone|iPad|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1);
  return iPhoneOrIPad && /Safari\//.test(userAgent) && !/CriOS|FxiOS|EdgiOS|OPiOS/.test(userAgent);
}

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
  if (isIosSafari(navigator.userAgent, navigator.maxTouchPoints)) {
    window.setTimeout(() => {
      waited = true;
      iosInstructions = true;
      notify();
    }, INSTALL_PROMPT_WAIT_MS);
  }
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
  const showIosInstructions = useSyncExternalStore(
    subscribe,
    () => waited && iosInstructions && !wasDismissed(brandId) && !isStandalone(),
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
      iosInstructions = false;
    }
    notify();
  }, [brandId]);
  return { canInstall, showIosInstructions, install, dismiss };
}
