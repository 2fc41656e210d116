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
    // Three files at a time on a 2-core machine: most of a file's time is spent waiting on
    // PostgreSQL, timers and sockets. With the files' summed time the same, one worker took
    // 926 s and two 471 s (~735 s of files); later, with ~1,500 s of files, two took 772 s and
    // three 517 s (2026-11-29, the summed time unchanged: the cores were not the limit).
    maxWorkers: 3,
    // Files share each worker's loaded modules instead of importing the whole server again for
    // every file (192 files: 330 s of imports, 25 s without; the step took 872 s instead of
    // 1,274 s on this machine). Tests keep their state in what they create (an app, a database
    // of their own), never in a module, so nothing carries from one file to the next.
    isolate: false,
    // So, too, the first file to load Dexie decides for the worker whether IndexedDB exists
    // (Dexie reads the global once, as it loads): every file starts with fake-indexeddb's, or a
    // device test after a file that loaded Dexie without it failed with "IndexedDB API missing".
    setupFiles: ['fake-indexeddb/auto'],
    globalSetup: ['./vitest.global-setup.ts'],
  },
});
