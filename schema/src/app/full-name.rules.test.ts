import { describe, expect, it } from 'vitest';
import { fullName } from './full-name.rules.ts';

describe('fullName', () => {
  it('joins first and last name with one space', () => {
    expect(fullName({ firstName: 'Ada', lastName: 'Lovelace' })).toBe('Ada Lovelace');
  });

  it('leaves no stray space when a part is missing', () => {
    expect(fullName({ firstName: 'Ada', lastName: '' })).toBe('Ada');
    expect(fullName({ firstName: '', lastName: 'Lovelace' })).toBe('Lovelace');
    expect(fullName({ firstName: '', lastName: '' })).toBe('');
  });
});
