import type { CollectionName } from './collections.ts';
import { collectionNames } from './collections.ts';
import { claims } from '../organizations/claims.ts';

/** `kiosk`: a front-desk device holding a kiosk credential of its organisation, not a person. */
export type Viewer = {
  view: 'org' | 'customer' | 'kiosk';
  orgId: string | null;
  claims: readonly string[];
};
/**
 * all: the whole organisation's; own: the viewer's own; family: the viewer's and their
 * children's. Whoever enforces `writable` enforces the limits below too.
 */
export type Access = {
  reach: 'all' | 'own' | 'family';
  writable: boolean;
  /** Writes are limited to what clock moves make (schema/src/kiosk/kiosk-push.rules.ts). */
  clockMovesOnly?: true;
  /**
   * Writes are limited to checking a booked person in to a class time that is on now, or
   * undoing that tap (schema/src/kiosk/kiosk-check-in.rules.ts).
   */
  checkInsOnly?: true;
  /**
   * Only bookings of class times still to come or ended less than CURRENT_BOOKINGS_MS ago are
   * replicated, so a front-desk device never downloads years of history. Safe with the
   * (txid, id) checkpoint because a booking only ever leaves this scope as time passes (see
   * the server's scope, sync-server/src/sync/collections/definitions.ts).
   */
  currentOnly?: true;
};

/** How long after its class time ended a booking is still "current" (`currentOnly`). */
export const CURRENT_BOOKINGS_MS = 24 * 3_600_000;

/**
 * Who replicates what (DESIGN.md §4): staff holding the collection's claim see all of their
 * organisation's documents; customers see their own and their children's. Used by the server to
 * scope every pull, push and stream, and by the device to choose what to replicate.
 */
export function accessTo(collection: CollectionName, viewer: Viewer): Access | null {
  if (!viewer.orgId) return null;
  if (viewer.view === 'kiosk') return kioskAccessTo(collection);
  const staff = viewer.view === 'org';
  const holds = (claim: string) => staff && viewer.claims.includes(claim);
  switch (collection) {
    case 'roster':
      if (holds('view-customers')) return { reach: 'all', writable: true };
      return staff ? null : { reach: 'family', writable: false };
    case 'time-entries':
      if (holds('manage-others-time-tracking')) return { reach: 'all', writable: true };
      if (holds('manage-own-time-tracking')) return { reach: 'own', writable: true };
      return null;
    case 'bookings':
      if (holds('manage-schedule')) return { reach: 'all', writable: true };
      return staff ? null : { reach: 'family', writable: true };
    case 'org-branding':
      // Everyone in the organisation sees its name, colours and logo; staff change them
      // through the branding settings, never by replication.
      return { reach: 'all', writable: false };
    case 'customer-notes':
      // Staff notes about customers: the front desk's, never the customer's own reading.
      return holds('view-customers') ? { reach: 'all', writable: true } : null;
    case 'products':
      // The catalogue as customers may see it, on every member's device; staff change it on
      // /dashboard/packages. Archived products arrive as tombstones for everyone (decision 0058).
      return { reach: 'all', writable: false };
    case 'booking-payments':
      // The payer's receipts for places paid at booking (decision 0070). Not on staff devices:
      // a staff member holding every claim already opens as many collections as RxDB's open
      // core allows in a page (MAX_OPEN_COLLECTIONS below).
      return staff ? null : { reach: 'family', writable: false };
    case 'purchases':
    case 'invoices':
    case 'credits':
      // What was bought: the buyer's family (as bookings), or every sale for staff who sell.
      // Never written by replication: charges and cancellations are routes.
      if (holds('manage-point-of-sale')) return { reach: 'all', writable: false };
      return staff ? null : { reach: 'family', writable: false };
    case 'classes':
    case 'occurrences':
    case 'appointment-types':
    case 'availability':
      // The timetable, on every member's device so the calendar opens offline; staff with
      // manage-schedule change it through the schedule routes (decision 0066).
      return { reach: 'all', writable: false };
  }
}

/**
 * A kiosk clocks the organisation's staff in and out (each with their PIN) and checks people
 * in to the class on now (issue 16): the timetable to pick it from, read-only, and the
 * bookings of current class times — each carrying the person's name, so no roster. Nothing
 * else: not the roster, not purchases, not even the branding.
 */
function kioskAccessTo(collection: CollectionName): Access | null {
  switch (collection) {
    case 'time-entries':
      return { reach: 'all', writable: true, clockMovesOnly: true };
    case 'occurrences':
      return { reach: 'all', writable: false };
    case 'bookings':
      return { reach: 'all', writable: true, checkInsOnly: true, currentOnly: true };
    default:
      return null;
  }
}

/**
 * RxDB's open core opens at most 14 collections at once in a page (COL23; STACK-NOTES): a
 * device opens its viewer's replicated collections and the rejections beside them.
 */
export const MAX_OPEN_COLLECTIONS = 14;
export const LOCAL_ONLY_COLLECTIONS = 1;

export function collectionsFor(viewer: Viewer): CollectionName[] {
  return collectionNames.filter((name) => accessTo(name, viewer) !== null);
}

/**
 * Whether anyone at all may push to a collection (staff holding every claim, a customer, a
 * kiosk): the read-only ones — the timetable, the catalogue — take no push body at all.
 */
export function writableBySomeone(collection: CollectionName): boolean {
  const orgId = 'any';
  return (['org', 'customer', 'kiosk'] as const).some(
    (view) => accessTo(collection, { view, orgId, claims })?.writable === true,
  );
}
