import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { recapOf, type VitestReport } from './vitest-recap.ts';

const fixtures = path.join(import.meta.dirname, 'vitest-recap-fixtures');
const reports = mkdtempSync(path.join(tmpdir(), 'recap-'));
afterAll(() => rmSync(reports, { recursive: true, force: true }));

function run(file: string) {
  const report = path.join(reports, `${file}.json`);
  const result = spawnSync(
    'npx',
    [
      'vitest',
      'run',
      '--config',
      path.join(fixtures, 'vitest.config.ts'),
      file,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
    ],
    { cwd: fixtures, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '1' } },
  );
  const summary = JSON.parse(readFileSync(report, 'utf8')) as VitestReport;
  return {
    code: result.status,
    summary,
    recap: recapOf('step', result.status, summary, result.stdout + result.stderr, fixtures),
  };
}

// One real vitest run per way of failing, so a vitest that changes how it prints or reports fails here.
test(
  'names an unhandled error when every test passed, with its message',
  { timeout: 60_000 },
  () => {
    const { code, summary, recap } = run('late-rejection.fixture.ts');
    expect(code).toBe(1);
    expect(summary.numFailedTests).toBe(0);
    expect(recap).toContain('Unhandled Rejection');
    expect(recap).toContain('a rejection after the test');
    expect(recap).not.toContain('\u001b[');
  },
);

test('names the file whose hook threw, with the error', { timeout: 60_000 }, () => {
  const { code, summary, recap } = run('hook.fixture.ts');
  expect(code).toBe(1);
  expect(summary.numFailedTests).toBe(0);
  expect(recap).toContain('✗ hook.fixture.ts');
  expect(recap).toContain('the teardown broke');
});

test('names a failed test and its assertion', { timeout: 60_000 }, () => {
  const { recap } = run('assertion.fixture.ts');
  expect(recap).toContain('  ✗ expects three');
  expect(recap).toContain('expected 2 to be 3');
  expect(recap).not.toContain('Unhandled');
});

test('prints what the browser said during a failed end-to-end test', { timeout: 60_000 }, () => {
  const { summary, recap } = run('browser-log.fixture.ts');
  expect(summary.numFailedTests).toBe(1);
  expect(recap).toContain('  ✗ a page that says why before the test fails');
  expect(recap).toMatch(
    /the browser said:\n +\d+\.\ds 503 GET \/api\/sync\/time-entries\/pull\?batchSize=200\n/,
  );
  expect(recap).toMatch(/\n +\d+\.\ds console\.error: the replica never answered(\n|$)/);
});
