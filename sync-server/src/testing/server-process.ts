import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { TEST_PASSWORD } from './auth-fixtures.ts';

const serverEntry = path.resolve(import.meta.dirname, '../server.ts');

/**
 * The real server in a process of its own (`server.ts` under tsx), listening on `port`, for
 * tests that kill or stop it. `env` adds to this process's environment; an undefined value
 * removes a variable (DATABASE_URL, to run on PGlite in DATA_DIR). Its output goes to `output`.
 */
export async function startServerProcess(
  env: Record<string, string | undefined>,
  port: number,
  output?: (text: string) => void,
): Promise<ChildProcess> {
  const merged: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SESSION_SECRET: 's'.repeat(40),
    PWA_DIST: '/nonexistent',
    ...env,
  };
  for (const [key, value] of Object.entries(merged)) if (value === undefined) delete merged[key];
  const child = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    env: merged,
    stdio: ['ignore', output ? 'pipe' : 'ignore', output ? 'pipe' : 'ignore'],
  });
  child.stdout?.on('data', (chunk: Buffer) => output?.(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output?.(chunk.toString()));
  for (let i = 0; i < 600 && child.exitCode === null; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('server process did not start');
}

/** Logs in to a server over HTTP as staff of `orgId`; answers the Cookie header to send. */
export async function signInOverHttp(base: string, email: string, orgId: string): Promise<string> {
  const login = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      identifier: email,
      password: TEST_PASSWORD,
      profileType: 'use-org',
      profileOrgId: orgId,
    }),
  });
  if (login.status !== 200) throw new Error(`log-in failed: ${login.status}`);
  return login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}
