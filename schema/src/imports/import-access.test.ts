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

  it('product assignments need the customer list and the till, as credits do', () => {
    expect(mayImport(['view-customers', 'manage-point-of-sale'], 'assignments')).toBe(true);
    expect(mayImport(['view-customers'], 'assignments')).toBe(false);
    expect(mayImport(['manage-point-of-sale'], 'assignments')).toBe(false);
  });

  it('every kind needs a claim: nobody imports anything with none', () => {
    for (const kind of importKinds) expect(mayImport([], kind)).toBe(false);
  });
});
