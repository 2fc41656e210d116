import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, startE2eServer, type E2eServer } from '../../scripts/e2e/harness.ts';

describe('the app shell', () => {
  let server: E2eServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2eServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('serves a deep link with the SPA fallback', async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${server.url}/auth/signup?orgId=${server.seed.zipperOrgId}`);
    expect(response?.status()).toBe(200);
    await expect.poll(() => page.title()).toContain('Coaching Platform');
  });
});
