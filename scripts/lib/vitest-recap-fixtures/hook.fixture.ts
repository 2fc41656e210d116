import { afterAll, expect, test } from 'vitest';

afterAll(() => {
  throw new Error('the teardown broke');
});
test('passes before its teardown throws', () => expect(2).toBe(2));
