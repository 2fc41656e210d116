import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildPwa } from './pwa-build.ts';

describe('the PWA build of npm start', () => {
  const outDir = mkdtempSync(path.join(tmpdir(), 'pwa-build-'));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('is a production build with a service worker even when the shell says NODE_ENV=development', () => {
    const before = process.env.NODE_ENV;
    process.env.NODE_ENV = 'development';
    try {
      buildPwa({ quiet: true, outDir });
    } finally {
      process.env.NODE_ENV = before;
    }
    expect(existsSync(path.join(outDir, 'sw.js'))).toBe(true);
    const scripts = readdirSync(path.join(outDir, 'assets')).filter((name) => name.endsWith('.js'));
    const code = scripts.map((name) => readFileSync(path.join(outDir, 'assets', name), 'utf8'));
    // A development bundle uses React's development JSX runtime, and registers no service
    // worker (main.tsx registers it only in a production build): none of that here.
    expect(code.filter((text) => text.includes('jsxDEV')).length).toBe(0);
    expect(readFileSync(path.join(outDir, 'index.html'), 'utf8')).not.toContain('/@vite/client');
  }, 240_000);
});
