/** spec §4/§9: consent is kept per host and per month (accepted in local, declined in session storage). */
export function cookieConsentKey(host: string, now: Date): string {
  const month = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  return `cookie-consent:${host}:${month}`;
}
export type CookieConsent = 'undecided' | 'accepted' | 'declined';
