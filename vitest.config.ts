import { defineConfig } from 'vitest/config';

// Unit and integration tests (node). End-to-end tests live in pwa/e2e and run through
// scripts/e2e.ts against a built app in Debian's Chromium.
export default defineConfig({
  test: {
    include: ['schema/src/**/*.test.ts', 'sync-server/src/**/*.test.ts', 'pwa/src/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time: the default on a 2-core machine is one, and most of a file's time is
    // spent waiting on PostgreSQL, timers and sockets: with the files' summed time the same
    // (~735 s), the step took 471 s instead of 926 s on this machine.
    maxWorkers: 2,
    globalSetup: ['./vitest.global-setup.ts'],
  },
});
