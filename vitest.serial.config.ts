import { defineConfig } from 'vitest/config';

// Tests that hold PostgreSQL transactions open on purpose (concurrency proofs, killing a
// server mid-push). Transaction ids are cluster-wide, so they would delay what other test
// files see; scripts/test.ts runs them on their own, one file at a time, after the rest.
export default defineConfig({
  test: {
    include: ['sync-server/src/**/*.serial-test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['./vitest.global-setup.ts'],
    fileParallelism: false,
  },
});
