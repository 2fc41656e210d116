import { describe, expect, it } from 'vitest';
import { storableTextMessages, unstorableTextIn } from './storable-text.rules.ts';

describe('text PostgreSQL stores exactly', () => {
  it('accepts any text without NUL or half a surrogate pair, emoji included', () => {
    expect(unstorableTextIn({ body: 'Knee 😀 better', tags: ['a', 'b\\"'], n: 1, x: null })).toBe(
      null,
    );
  });

  it('finds NUL and lone surrogates in values and keys, at any depth', () => {
    expect(unstorableTextIn({ a: [{ b: 'x\u0000' }] })).toBe(storableTextMessages.nul);
    expect(unstorableTextIn({ tags: ['ok', '\ud83d'] })).toBe(storableTextMessages.loneSurrogate);
    expect(unstorableTextIn({ ['\udc00']: 1 })).toBe(storableTextMessages.loneSurrogate);
    let deep: unknown = ['\u0000'];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(unstorableTextIn({ stray: deep })).toBe(storableTextMessages.nul);
    expect(unstorableTextIn({ wide: [...Array<number>(500_000).fill(0), '\u0000'] })).toBe(
      storableTextMessages.nul,
    );
  });
});
