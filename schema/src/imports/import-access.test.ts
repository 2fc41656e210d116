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

  it('the imports not built yet are refused to everyone, whatever they hold', () => {
    for (const kind of importKinds.filter((k) => k !== 'customers' && k !== 'tags'))
      expect(mayImport(claims, kind)).toBe(false);
  });
});
