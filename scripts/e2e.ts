import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureChromium } from './lib/chromium.ts';
import { buildPwa, repoRoot } from './lib/pwa-build.ts';

/** Builds the PWA when stale, makes sure Chromium is there, then runs pwa/e2e. */
ensureChromium();
buildPwa({ quiet: true });
const result = spawnSync('npx', ['vitest', 'run', '--config', path.join(repoRoot, 'pwa/e2e/vitest.config.ts'), ...process.argv.slice(2)], {
  cwd: repoRoot,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
