import { defineConfig } from 'vitest/config';

// Tests that hold PostgreSQL transactions open on purpose or measure time (concurrency proofs,
// killing a server mid-push, two servers' latency, a 100,000-row import); scripts/test.ts runs
// them on their own, one file at a time, after the rest. (Before decision 0076 their open
// transactions also held other files' feeds, as transaction ids are cluster-wide; now a feed
// waits only for its own database's writers.)
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
