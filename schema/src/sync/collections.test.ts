import { describe, expect, it } from 'vitest';
import { collectionNames, isCollectionName } from './collections.ts';

describe('isCollectionName', () => {
  it('knows every replicated collection', () => {
    for (const name of collectionNames) expect(isCollectionName(name)).toBe(true);
  });

  it('is not fooled by keys every object inherits', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])
      expect(isCollectionName(name), name).toBe(false);
  });
});
