import path from 'node:path';

export interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  testResults: Array<{
    name: string;
    status: string;
    message?: string;
    assertionResults: Array<{
      fullName: string;
      status: string;
      failureMessages: string[];
      /** An end-to-end test's: what the browser said while it ran (pwa/e2e/e2e-setup.ts). */
      meta?: { browserLog?: string[] };
    }>;
  }>;
}

/** Enough of a failed end-to-end test's browser journal to see what went wrong before it. */
const BROWSER_LINES = 30;
const firstLines = (text: string, count: number) => text.split('\n').slice(0, count).join('\n');
// eslint-disable-next-line no-control-regex -- the terminal's colour codes, to read the output as text
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

/** What failed in one vitest step, from its JSON report and, for errors outside tests, its output. */
export function recapOf(
  name: string,
  code: number | null,
  summary: VitestReport | undefined,
  output: string,
  root: string,
): string {
  const lines = [`── ${name}: exited ${code ?? 'without a code'} ──`];
  for (const file of summary?.testResults ?? []) {
    if (file.status !== 'failed') continue;
    lines.push(`✗ ${path.relative(root, file.name)}`);
    if (file.message) lines.push(firstLines(file.message, 12));
    for (const test of file.assertionResults.filter((t) => t.status === 'failed')) {
      lines.push(`  ✗ ${test.fullName}`, firstLines(test.failureMessages.join('\n'), 12));
      const said = test.meta?.browserLog ?? [];
      if (said.length > 0) {
        const last = said.slice(-BROWSER_LINES);
        const left = said.length - last.length;
        lines.push(
          `  the browser said${left > 0 ? ` (the last ${last.length} of ${said.length})` : ''}:`,
        );
        lines.push(...last.map((line) => `    ${line}`));
      }
    }
  }
  // Errors that no test owns are not in the report: vitest prints them under "Unhandled Errors",
  // each between rows of ⎯, and exits 1 with every test passed.
  const text = plain(output);
  const errors = text.match(/⎯+ Unhandled Errors ⎯+\n[\s\S]*?(?=\n⎯{20,}\n|\n Test Files )/g) ?? [];
  for (const block of errors) lines.push(firstLines(block, 40));
  if (lines.length === 1)
    lines.push('no failed test and no error block in the output: read the step above');
  return lines.join('\n');
}
