import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasTag, normaliseTags, spellingOf, tagKey } from './tags.rules.ts';

describe('tags are case-insensitive', () => {
  it('keeps one spelling of each tag, the first, trimmed', () => {
    expect(normaliseTags(['vip', 'VIP', ' Vip ', 'morning  class', 'Morning class', ''])).toEqual([
      'vip',
      'morning class',
    ]);
  });

  it('takes the organisation’s spelling for a tag typed anew', () => {
    expect(spellingOf('VIP', ['Beginner', 'vip'])).toBe('vip');
    expect(spellingOf('  New  one ', ['vip'])).toBe('New one');
    expect(hasTag(['vip'], 'VIP')).toBe(true);
  });

  it('never leaves two spellings of one tag, whatever the list', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('vip', 'VIP', 'Vip ', 'am', 'AM', 'x', ' ', 'pm')), (tags) => {
        const out = normaliseTags(tags);
        expect(new Set(out.map(tagKey)).size).toBe(out.length);
        expect(normaliseTags(out)).toEqual(out);
        for (const tag of tags) if (tag.trim()) expect(hasTag(out, tag)).toBe(true);
      }),
    );
  });
});
