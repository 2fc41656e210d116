import { describe, expect, it } from 'vitest';
import { claims } from '../organizations/claims.ts';
import {
  accessTo,
  collectionsFor,
  LOCAL_ONLY_COLLECTIONS,
  MAX_OPEN_COLLECTIONS,
  type Viewer,
} from './access.rules.ts';

const orgId = '7d3f2a4e-2222-4c1a-9a55-0c1f0d6d1a01';
const staff = (claims: string[]): Viewer => ({ view: 'org', orgId, claims });
const customer: Viewer = { view: 'customer', orgId, claims: [] };
const kiosk: Viewer = { view: 'kiosk', orgId, claims: [] };

describe('who replicates what (DESIGN.md How data flows 4)', () => {
  it('gives staff what their claims cover, the whole organisation’s', () => {
    expect(accessTo('time-entries', staff(['manage-others-time-tracking']))).toEqual({
      reach: 'all',
      writable: true,
    });
    expect(accessTo('time-entries', staff(['manage-own-time-tracking']))).toEqual({
      reach: 'own',
      writable: true,
    });
    expect(accessTo('time-entries', staff([]))).toBeNull();
    expect(accessTo('roster', staff(['view-customers']))).toEqual({ reach: 'all', writable: true });
    expect(accessTo('roster', staff([]))).toBeNull();
    expect(accessTo('bookings', staff(['manage-schedule']))).toEqual({
      reach: 'all',
      writable: true,
    });
    expect(accessTo('org-branding', staff([]))).toEqual({ reach: 'all', writable: false });
    expect(accessTo('customer-notes', staff(['view-customers']))).toEqual({
      reach: 'all',
      writable: true,
    });
    expect(accessTo('customer-notes', staff(['manage-schedule']))).toBeNull();
  });

  it('gives customers their family’s roster (read-only) and bookings, never time entries', () => {
    expect(accessTo('roster', customer)).toEqual({ reach: 'family', writable: false });
    expect(accessTo('bookings', customer)).toEqual({ reach: 'family', writable: true });
    expect(accessTo('time-entries', customer)).toBeNull();
    // Staff notes are about customers, never for them — not even their own.
    expect(accessTo('customer-notes', customer)).toBeNull();
    expect(accessTo('customer-notes', { ...customer, claims: ['view-customers'] })).toBeNull();
    // A customer holding staff claims by mistake still gets nothing of staff's.
    expect(
      accessTo('time-entries', { ...customer, claims: ['manage-others-time-tracking'] }),
    ).toBeNull();
  });

  it('gives a kiosk its organisation’s time entries for clock moves, its timetable and current bookings for check-ins, and nothing else', () => {
    expect(accessTo('time-entries', kiosk)).toEqual({
      reach: 'all',
      writable: true,
      clockMovesOnly: true,
    });
    expect(accessTo('occurrences', kiosk)).toEqual({ reach: 'all', writable: false });
    expect(accessTo('bookings', kiosk)).toEqual({
      reach: 'all',
      writable: true,
      checkInsOnly: true,
      currentOnly: true,
    });
    expect(collectionsFor(kiosk)).toEqual(['time-entries', 'bookings', 'occurrences']);
    // Claims never widen a kiosk's reach.
    const claimed: Viewer = {
      ...kiosk,
      claims: ['view-customers', 'manage-schedule', 'manage-others-time-tracking'],
    };
    expect(collectionsFor(claimed)).toEqual(['time-entries', 'bookings', 'occurrences']);
    expect(accessTo('time-entries', claimed)?.clockMovesOnly).toBe(true);
    expect(accessTo('bookings', claimed)).toMatchObject({ checkInsOnly: true, currentOnly: true });
    for (const name of ['roster', 'customer-notes', 'org-branding', 'classes'] as const)
      expect(accessTo(name, claimed), name).toBeNull();
  });

  it('gives the catalogue to everyone in the organisation, read-only, and purchases and credits to their family or staff who sell', () => {
    const readAll = { reach: 'all', writable: false };
    for (const viewer of [staff([]), staff(['manage-point-of-sale']), customer]) {
      expect(accessTo('products', viewer)).toEqual(readAll);
    }
    for (const name of ['purchases', 'invoices', 'credits'] as const) {
      expect(accessTo(name, staff(['manage-point-of-sale']))).toEqual(readAll);
      // Staff without the claim see no one's purchases, not even by holding other claims.
      expect(accessTo(name, staff(['view-customers', 'manage-products']))).toBeNull();
      expect(accessTo(name, customer)).toEqual({ reach: 'family', writable: false });
      // A customer holding the claim by mistake still sees only their family's.
      expect(accessTo(name, { ...customer, claims: ['manage-point-of-sale'] })).toEqual({
        reach: 'family',
        writable: false,
      });
      expect(accessTo(name, kiosk)).toBeNull();
    }
    expect(accessTo('products', kiosk)).toBeNull();
  });

  it('gives nothing without an organisation', () => {
    for (const viewer of [staff(['manage-others-time-tracking']), customer, kiosk]) {
      expect(collectionsFor({ ...viewer, orgId: null })).toEqual([]);
    }
  });
});

// RxDB's open core refuses a collection past its limit (COL23): a new replicated collection
// must leave every viewer's device under it, or that viewer's pages stop opening.
describe('what one device opens', () => {
  it('stays within what RxDB opens in a page, for staff holding every claim and for customers', () => {
    for (const viewer of [staff([...claims]), customer, kiosk])
      expect(collectionsFor(viewer).length + LOCAL_ONLY_COLLECTIONS).toBeLessThanOrEqual(
        MAX_OPEN_COLLECTIONS,
      );
  });
});
