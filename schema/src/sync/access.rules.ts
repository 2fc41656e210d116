import type { CollectionName } from './collections.ts';
import { collectionNames } from './collections.ts';

export type Viewer = { view: 'org' | 'customer'; orgId: string | null; claims: readonly string[] };
/** all: the whole organisation's; own: the viewer's own; family: the viewer's and their children's. */
export type Access = { reach: 'all' | 'own' | 'family'; writable: boolean };

/**
 * Who replicates what (DESIGN.md §4): staff holding the collection's claim see all of their
 * organisation's documents; customers see their own and their children's. Used by the server to
 * scope every pull, push and stream, and by the device to choose what to replicate.
 */
export function accessTo(collection: CollectionName, viewer: Viewer): Access | null {
  if (!viewer.orgId) return null;
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
  }
}

export function collectionsFor(viewer: Viewer): CollectionName[] {
  return collectionNames.filter((name) => accessTo(name, viewer) !== null);
}
