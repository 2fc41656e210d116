import type { Claim } from '../organizations/claims.ts';
import type { ImportKind } from './import-rules.ts';

/**
 * Who may run each import (issue 17), decided here once for the server and the screens: every
 * import writes to the customer list (view-customers); assignments and credits also sell
 * (manage-point-of-sale), as charging a customer does.
 */
export const importClaims: Record<ImportKind, readonly Claim[]> = {
  customers: ['view-customers'],
  tags: ['view-customers'],
  'contact-lists': ['view-customers'],
  assignments: ['view-customers', 'manage-point-of-sale'],
  credits: ['view-customers', 'manage-point-of-sale'],
};

/**
 * The imports built so far. Assignments are checked by the rules (import-rules.ts) but not yet
 * written: the server refuses them and the screen does not offer them (decision 0073).
 */
export const importKindsBuilt: readonly ImportKind[] = [
  'customers',
  'tags',
  'credits',
  'contact-lists',
];

export function mayImport(claims: readonly string[], kind: ImportKind): boolean {
  return importKindsBuilt.includes(kind) && importClaims[kind].every((c) => claims.includes(c));
}
