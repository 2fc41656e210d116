import { describe, expect, it } from 'vitest';
import { claims } from '../organizations/claims.ts';
import { mayImport } from './import-access.ts';
import { importKinds } from './import-rules.ts';

describe('who may import what', () => {
  it('customers and tags need view-customers; nothing else lets anyone import them', () => {
    for (const kind of ['customers', 'tags'] as const) {
      expect(mayImport(['view-customers'], kind)).toBe(true);
      expect(
        mayImport(
          claims.filter((c) => c !== 'view-customers'),
          kind,
        ),
      ).toBe(false);
      expect(mayImport([], kind)).toBe(false);
    }
  });

  it('credits need the customer list and the till (view-customers and manage-point-of-sale)', () => {
    expect(mayImport(['view-customers', 'manage-point-of-sale'], 'credits')).toBe(true);
    expect(mayImport(['view-customers'], 'credits')).toBe(false);
    expect(mayImport(['manage-point-of-sale'], 'credits')).toBe(false);
  });

  it('the imports not built yet are refused to everyone, whatever they hold', () => {
    for (const kind of importKinds.filter(
      (k) => !['customers', 'tags', 'credits', 'contact-lists'].includes(k),
    ))
      expect(mayImport(claims, kind)).toBe(false);
  });
});
