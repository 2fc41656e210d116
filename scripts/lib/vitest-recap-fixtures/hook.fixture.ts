import { afterAll, test } from 'vitest';

afterAll(() => {
  throw new Error('the teardown broke');
});
// Nothing to check: the file fails in its teardown alone.
test('passes before its teardown throws', () => {});
