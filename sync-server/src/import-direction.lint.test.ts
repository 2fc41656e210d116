import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The repository's own ESLint configuration, run on fixture texts placed at paths inside the
// server (decision 0053). Fixtures are never written to disk: ESLint lints the text as if it
// were the named file, and resolves its imports against the real tree.
const root = fileURLToPath(new URL('../../', import.meta.url));
const eslint = new ESLint({ cwd: root, overrideConfigFile: 'eslint.config.js' });

async function problemsOf(code: string, filePath: string) {
  const [result] = await eslint.lintText(code, { filePath: `${root}${filePath}` });
  return result!.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

const importOf = (path: string) =>
  `import { rosterItemToDoc } from '${path}';\nexport const toDoc = rosterItemToDoc;\n`;

describe('a feature may use another feature’s service, never its repository', () => {
  it('refuses a feature importing another feature’s repository', async () => {
    const problems = await problemsOf(
      importOf('../crm/roster.repository.ts'),
      'sync-server/src/team/fixture.ts',
    );
    expect(problems).toEqual([
      expect.stringMatching(
        /^import-x\/no-restricted-paths: .*team\/ may call another folder's service, never its repository \(decision 0053\)$/,
      ),
    ]);
  });

  it('refuses a shared folder importing a feature’s repository too', async () => {
    const problems = await problemsOf(
      importOf('../crm/roster.repository.ts'),
      'sync-server/src/sync/fixture.ts',
    );
    expect(problems).toEqual([expect.stringContaining('import-x/no-restricted-paths')]);
  });

  it('lets a feature import another feature’s service', async () => {
    expect(
      await problemsOf(importOf('../crm/roster.service.ts'), 'sync-server/src/team/fixture.ts'),
    ).toEqual([]);
  });

  it('lets a feature import its own repository', async () => {
    expect(
      await problemsOf(importOf('./roster.repository.ts'), 'sync-server/src/crm/fixture.ts'),
    ).toEqual([]);
  });

  it('lets tests and the test harness arrange data through any repository', async () => {
    const code = importOf('../crm/roster.repository.ts');
    expect(await problemsOf(code, 'sync-server/src/team/fixture.test.ts')).toEqual([]);
    expect(await problemsOf(code, 'sync-server/src/testing/fixture.ts')).toEqual([]);
  });
});

describe('no import cycles on the server or in schema/', () => {
  it('refuses a repository that imports its own service back', async () => {
    const code = `import { rosterItemToDoc } from './roster.service.ts';\nexport const toDoc = rosterItemToDoc;\n`;
    expect(await problemsOf(code, 'sync-server/src/crm/roster.repository.ts')).toEqual([
      expect.stringMatching(/^import-x\/no-cycle: Dependency cycle/),
    ]);
  });

  it('refuses a cycle between schema modules', async () => {
    const code = `import { accessTo } from './access.rules.ts';\nexport const rule = accessTo;\n`;
    expect(await problemsOf(code, 'schema/src/sync/collections.ts')).toEqual([
      expect.stringMatching(/^import-x\/no-cycle: Dependency cycle/),
    ]);
  });
});
