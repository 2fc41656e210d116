import { defineConfig } from 'vitest/config';

// End-to-end tests: real server, real database, Debian's Chromium. Run by scripts/e2e.ts,
// which builds the PWA first.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['**/*.e2e.ts'],
    environment: 'node',
    // CI machines have run these three to four times slower than a quiet one: a test is given
    // room for that, and a hang still ends it.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    globalSetup: ['./global-setup.ts'],
    // Three files at a time (two until 2026-11-29): a file waits on its server, the database
    // and page loads much of the time, as the unit files do.
    maxWorkers: 3,
  },
});
