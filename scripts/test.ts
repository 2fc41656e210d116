import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureChromium } from './lib/chromium.ts';
import { buildPwa, repoRoot } from './lib/pwa-build.ts';
import { recapOf, type VitestReport } from './lib/vitest-recap.ts';

/**
 * `npm test`: typecheck, lint, unit + integration tests (real PostgreSQL when DATABASE_URL is
 * set, PGlite always), then the end-to-end tests in headless Chromium against a fresh build.
 * Ends with one plain "N passed, N failed" line.
 */
const reports = mkdtempSync(path.join(tmpdir(), 'test-reports-'));
let passed = 0;
let failed = 0;
const failures: string[] = [];
const recaps: string[] = [];

/**
 * Steps that only use the CPU and share nothing (typecheck and lint), side by side: each is one
 * single-threaded process, so two cores do them in about the time of the longest. Their output
 * is held and printed whole, one step after another.
 */
async function stepsSideBySide(steps: Array<[name: string, command: string, args: string[]]>) {
  const results = await Promise.all(
    steps.map(
      ([name, command, args]) =>
        new Promise<{ name: string; ok: boolean; output: string; seconds: number }>((resolve) => {
          const started = Date.now();
          const child = spawn(command, args, { cwd: repoRoot });
          let output = '';
          // Decoded as a stream: a chunk may end inside a character.
          child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
          child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
          child.on('error', (error) => (output += `${error.message}\n`));
          child.on('close', (code) =>
            resolve({ name, ok: code === 0, output, seconds: (Date.now() - started) / 1000 }),
          );
        }),
    ),
  );
  for (const { name, ok, output, seconds } of results) {
    console.log(`\n━━ ${name} ━━`);
    if (output) process.stdout.write(output);
    console.log(`━━ ${name}: ${ok ? 'ok' : 'FAILED'} in ${seconds.toFixed(1)} s`);
    if (!ok) failures.push(name);
  }
}

/**
 * A vitest step, its output shown as it comes and kept: when the step fails, what failed is
 * written again at the very end (`recaps`), since a CI log is often read from its tail only. A
 * run can fail with every test passed — an unhandled error, or a hook that threw — and then the
 * recap is the only place that says why.
 */
async function vitest(name: string, extraArgs: string[]): Promise<void> {
  const report = path.join(reports, `${name.replace(/\W+/g, '-')}.json`);
  const args = [
    'vitest',
    'run',
    ...extraArgs,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ];
  console.log(`\n━━ ${name} ━━`);
  const started = Date.now();
  // Kept as bytes and decoded once: a chunk may end inside a character (vitest's ⎯ is three).
  const kept = { stdout: [] as Buffer[], stderr: [] as Buffer[], error: '' };
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn('npx', args, { cwd: repoRoot, stdio: ['inherit', 'pipe', 'pipe'] });
    const keep = (to: NodeJS.WriteStream, into: Buffer[]) => (chunk: Buffer) => {
      to.write(chunk);
      into.push(chunk);
    };
    child.stdout.on('data', keep(process.stdout, kept.stdout));
    child.stderr.on('data', keep(process.stderr, kept.stderr));
    child.on('error', (error) => {
      kept.error = error.message;
      resolve(null);
    });
    child.on('close', resolve);
  });
  // Each stream whole (vitest writes its error blocks to stderr), not interleaved.
  const output =
    [kept.stderr, kept.stdout].map((chunks) => Buffer.concat(chunks).toString()).join('\n') +
    kept.error;
  const ok = code === 0;
  console.log(
    `━━ ${name}: ${ok ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  let summary: VitestReport | undefined;
  try {
    summary = JSON.parse(readFileSync(report, 'utf8')) as VitestReport;
    passed += summary.numPassedTests;
    failed += summary.numFailedTests;
  } catch {
    failed += 1; // the runner died before writing its report
  }
  if (!ok) {
    failures.push(name);
    recaps.push(recapOf(name, code, summary, output, repoRoot));
  }
}

try {
  ensureChromium();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
if (!process.env.DATABASE_URL) {
  console.log(
    'DATABASE_URL is not set: integration tests run on PGlite only (CI runs them on PostgreSQL too).',
  );
}

await stepsSideBySide([
  ['typecheck', 'npx', ['tsc', '-p', 'tsconfig.json']],
  ['typecheck pwa', 'npx', ['tsc', '-p', 'pwa/tsconfig.json']],
  ['lint', 'npx', ['eslint', '.']],
]);
await vitest('unit and integration', []);
await vitest('concurrency and interruption (serial)', ['--config', 'vitest.serial.config.ts']);
try {
  console.log('\n━━ build the PWA ━━');
  buildPwa({ force: true, quiet: true });
  await vitest('end-to-end (Chromium)', ['--config', 'pwa/e2e/vitest.config.ts']);
} catch (error) {
  failures.push(`PWA build: ${error instanceof Error ? error.message : String(error)}`);
}
rmSync(reports, { recursive: true, force: true });

if (recaps.length) console.log(`\n━━ what failed ━━\n${recaps.join('\n\n')}`);
console.log(failures.length ? `\nFailed steps: ${failures.join(', ')}` : '\nAll steps passed.');
console.log(`${passed} passed, ${failed} failed`);
process.exit(failures.length || failed ? 1 : 0);
