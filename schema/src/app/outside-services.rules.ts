/** Outside services whose script or frames a page of the app loads from their own origin. */
export type OutsideService = 'google-sign-in' | 'stripe';

/**
 * The app pages that load an outside service, and which. Only these pages allow that
 * service's origins (the server's Content-Security-Policy); every other page allows none.
 * A policy belongs to a document, so each of these pages is always a full page load from the
 * server: the app opens them with `location.assign`, never a client-side navigation, and the
 * service worker fetches them from the network instead of answering with its cached shell.
 */
const pagesWithOutsideServices: Readonly<Record<string, readonly OutsideService[]>> = {
  // The Google button on log-in and signup leads here; GIS loads nowhere else.
  '/auth/login-with-google': ['google-sign-in'],
  // Payments: the pages with Stripe's card entry (Elements) go here with ['stripe'].
};

export function outsideServicesOf(pathname: string): readonly OutsideService[] {
  const page = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return Object.hasOwn(pagesWithOutsideServices, page)
    ? (pagesWithOutsideServices[page] ?? [])
    : [];
}
