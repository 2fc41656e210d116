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
 * The imports built. Product assignments are, but for two of their actions' terms (decision
 * 0073): starting a card subscription, and an invitation's end date or discount — the rules
 * refuse those rows with a message that says so (import-rules.ts).
 */
export const importKindsBuilt: readonly ImportKind[] = [
  'customers',
  'tags',
  'credits',
  'contact-lists',
  'assignments',
];

export function mayImport(claims: readonly string[], kind: ImportKind): boolean {
  return importKindsBuilt.includes(kind) && importClaims[kind].every((c) => claims.includes(c));
}
