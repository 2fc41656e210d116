import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('has working defaults for development, with a secret kept in DATA_DIR', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cfg-'));
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({ port: 3000, host: '127.0.0.1', publicUrl: 'http://127.0.0.1:3000', secureCookies: false });
    expect(config.databaseUrl).toBeUndefined();
    expect(readFileSync(path.join(dataDir, 'session-secret'), 'utf8')).toBe(config.sessionSecret);
    expect(loadConfig({ DATA_DIR: dataDir }).sessionSecret).toBe(config.sessionSecret);
  });

  it('names each malformed variable on its own line', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'not a url', SESSION_SECRET: 'short' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toMatch(/^ {2}PORT: /m);
      expect(message).toMatch(/^ {2}DATABASE_URL: DATABASE_URL must be a postgres:\/\/ URL$/m);
      expect(message).toMatch(/^ {2}SESSION_SECRET: SESSION_SECRET must be at least 32 characters$/m);
    }
  });

  it('requires SESSION_SECRET in production and marks cookies Secure behind https', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SESSION_SECRET: required in production/);
    const config = loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40), PUBLIC_URL: 'https://app.example' });
    expect(config.secureCookies).toBe(true);
  });
});
