import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../sync-server/src/config.ts';
import { demoEnvironment } from './demo-env.ts';

describe('npm start (the demo)', () => {
  const devToolsWith = (env: Record<string, string>) =>
    loadConfig(
      demoEnvironment({
        SESSION_SECRET: 'x'.repeat(40),
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'demo-')),
        ...env,
      }),
    ).devTools;

  it('has the development mailbox on this machine', () => {
    expect(devToolsWith({})).toBe(true);
    expect(devToolsWith({ HOST: 'localhost', PUBLIC_URL: 'http://localhost:3000' })).toBe(true);
  });

  it('leaves them off wherever the environment says it is a deployment, or says otherwise', () => {
    expect(devToolsWith({ NODE_ENV: 'production' })).toBe(false);
    expect(devToolsWith({ NODE_ENV: 'development' })).toBe(false);
    expect(devToolsWith({ DEV_TOOLS: '0' })).toBe(false);
    expect(devToolsWith({ HOST: '0.0.0.0' })).toBe(false);
    expect(devToolsWith({ PUBLIC_URL: 'https://app.example.com' })).toBe(false);
  });
});
