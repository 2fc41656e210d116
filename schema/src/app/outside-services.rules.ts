/** Outside services whose script or frames a page of the app loads from their own origin. */
export type OutsideService = 'google-sign-in' | 'stripe';

/** The page with Stripe's card entry (decision 0063), shown in a frame by the card forms. */
export const cardEntryPath = '/payments/card-entry';

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
  // Stripe's card entry (Elements), framed by every card form when the processor is Stripe
  // (decision 0063): Stripe.js runs in this document only, never beside the app's own state.
  [cardEntryPath]: ['stripe'],
};

const pageOf = (pathname: string) =>
  pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;

/**
 * The one page the app's own pages may frame (frame-ancestors 'self'); every other page may be
 * framed by nobody. The card entry is framed so that its dialog keeps its place and its state.
 */
export function isFramedByTheApp(pathname: string): boolean {
  return pageOf(pathname) === cardEntryPath;
}

export function outsideServicesOf(pathname: string): readonly OutsideService[] {
  const page = pageOf(pathname);
  return Object.hasOwn(pagesWithOutsideServices, page)
    ? (pagesWithOutsideServices[page] ?? [])
    : [];
}
