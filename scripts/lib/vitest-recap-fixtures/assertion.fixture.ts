import { expect, test } from 'vitest';

test('expects three', () => expect(2).toBe(3));
