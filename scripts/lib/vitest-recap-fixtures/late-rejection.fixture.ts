import { test } from 'vitest';

// Nothing to check: the test passes, and the run fails on what it leaves behind.
test('passes, and leaves a rejection behind', async () => {
  setTimeout(() => void Promise.reject(new Error('a rejection after the test')), 5);
  await new Promise((resolve) => setTimeout(resolve, 50));
});
