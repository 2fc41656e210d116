import { beforeEach } from 'vitest';
import { journalLines, startJournal } from '../../scripts/e2e/browser-log.ts';

/**
 * Each test starts the browser's journal afresh; a test that fails carries what the browser
 * said meanwhile (console errors, failed requests, answers of 400 or more) in its report's
 * `meta.browserLog`, which the runner's "what failed" recap prints — a failure on a loaded CI
 * machine then says more than which element never appeared.
 */
beforeEach(({ task, onTestFailed }) => {
  startJournal();
  onTestFailed(() => {
    const lines = journalLines();
    task.meta.browserLog = lines;
    if (lines.length > 0)
      console.error(`What the browser said during "${task.name}":\n${lines.join('\n')}`);
  });
});

declare module 'vitest' {
  interface TaskMeta {
    /** What the browser said during a failed test (scripts/e2e/browser-log.ts). */
    browserLog?: string[];
  }
}
