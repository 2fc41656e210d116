import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
export const pwaDist = path.join(repoRoot, 'pwa/dist');

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((max, name) => Math.max(max, newestMtime(path.join(entry, name))), stat.mtimeMs);
}

/** The PWA build is stale when any of its inputs changed after dist/index.html was written. */
export function pwaBuildIsStale(): boolean {
  const built = path.join(pwaDist, 'index.html');
  if (!existsSync(built)) return true;
  const inputs = ['pwa/src', 'pwa/index.html', 'pwa/public', 'pwa/vite.config.ts', 'schema/src', 'package-lock.json'];
  const newest = Math.max(...inputs.map((p) => newestMtime(path.join(repoRoot, p))));
  return newest > statSync(built).mtimeMs;
}

/**
 * Always a production build, whatever NODE_ENV the shell has: Vite follows NODE_ENV, and a
 * development bundle registers no service worker — nothing would work offline, and nobody would
 * be told (issue 13). `outDir` is for the test that proves it.
 */
export function buildPwa(options: { force?: boolean; quiet?: boolean; outDir?: string } = {}): void {
  if (!options.force && !options.outDir && !pwaBuildIsStale()) return;
  if (!options.quiet) console.log('Building the PWA…');
  const args = ['vite', 'build', '--logLevel', options.quiet ? 'warn' : 'info'];
  if (options.outDir) args.push('--outDir', options.outDir, '--emptyOutDir');
  const result = spawnSync('npx', args, {
    cwd: path.join(repoRoot, 'pwa'),
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error('The PWA build failed.');
}
