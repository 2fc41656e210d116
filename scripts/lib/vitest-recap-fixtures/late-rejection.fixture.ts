import { expect, test } from 'vitest';

test('passes, and leaves a rejection behind', async () => {
  expect(1).toBe(1);
  setTimeout(() => void Promise.reject(new Error('a rejection after the test')), 5);
  await new Promise((resolve) => setTimeout(resolve, 50));
});
