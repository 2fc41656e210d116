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
    setupFiles: ['./e2e-setup.ts'],
    // Two files at a time keep a 2-core machine busy but not starved. Three took 604 s instead
    // of 752 s once (2026-11-29, morning); that evening three drove the load average to 14 on
    // two cores — 13 files in 12 minutes against 14 in 10 with two — and a test that a note
    // reaches a second screen within 2 s failed. The browsers' rendering is the limit here.
    maxWorkers: 2,
  },
});
