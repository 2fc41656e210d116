import { describe, expect, it } from 'vitest';
import { holdsLoneSurrogate, nestsDeeperThan } from './json-body.ts';

describe('nestsDeeperThan', () => {
  it('counts objects and arrays, not brackets inside strings', () => {
    expect(nestsDeeperThan('{"a":[{"b":1}]}', 3)).toBe(false);
    expect(nestsDeeperThan('{"a":[{"b":[1]}]}', 3)).toBe(true);
    expect(nestsDeeperThan('{"a":"[[[[{{{{"}', 1)).toBe(false);
    expect(nestsDeeperThan('{"a":"\\"[[[[","b":[]}', 2)).toBe(false);
    expect(nestsDeeperThan('{"a":"\\\\","b":[[]]}', 2)).toBe(true);
  });
});

describe('holdsLoneSurrogate', () => {
  it('finds an unpaired half in a value or a key, however deep', () => {
    expect(holdsLoneSurrogate({ a: [{ b: 'x\uD800' }] })).toBe(true);
    expect(holdsLoneSurrogate({ a: { '\uDC00': 1 } })).toBe(true);
    expect(holdsLoneSurrogate('\uDE00\uD83D')).toBe(true);
  });

  it('lets pairs and other values through', () => {
    expect(holdsLoneSurrogate({ note: 'a\uD83D\uDE00b', n: 1, ok: true, none: null })).toBe(false);
  });
});
