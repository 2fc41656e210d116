import { useSyncExternalStore } from 'react';
import { cookieConsentKey, type CookieConsent } from '@platform/schema/consent/cookie-consent.rules';

const listeners = new Set<() => void>();
const key = () => cookieConsentKey(window.location.host, new Date());

/** spec §4: accepted lives in local storage, declined in session storage, per host and month. */
export function readCookieConsent(): CookieConsent {
  try {
    if (localStorage.getItem(key()) === 'accepted') return 'accepted';
    if (sessionStorage.getItem(key()) === 'declined') return 'declined';
  } catch {
    // Storage can be unavailable (private modes); treat as undecided.
  }
  return 'undecided';
}

export function setCookieConsent(value: 'accepted' | 'declined'): void {
  try {
    if (value === 'accepted') localStorage.setItem(key(), 'accepted');
    else sessionStorage.setItem(key(), 'declined');
  } catch {
    // Nothing to keep it in; the choice lasts for this page only.
  }
  listeners.forEach((listener) => listener());
}

export function useCookieConsent(): CookieConsent {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    readCookieConsent,
    () => 'undecided',
  );
}
