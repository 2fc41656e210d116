import { describe, expect, it } from 'vitest';
import { useServerAndBrowser } from '../../scripts/e2e/harness.ts';

describe('the app shell', () => {
  const env = useServerAndBrowser();

  it('serves a deep link with the SPA fallback', async () => {
    const page = await env.browser.newPage();
    const response = await page.goto(`${env.server.url}/auth/signup`);
    expect(response?.status()).toBe(200);
    await expect.poll(() => page.title()).toContain('Coaching Platform');
    await page.close();
  });

  it("serves an organisation's deep link as that organisation's app", async () => {
    const page = await env.browser.newPage();
    const response = await page.goto(
      `${env.server.url}/auth/signup?orgId=${env.server.seed.zipperOrgId}`,
    );
    expect(response?.status()).toBe(200);
    // The branded title is set once the organisation's branding has loaded (a second under load).
    await expect.poll(() => page.title(), { timeout: 10_000 }).toBe('Zipper Fitness');
    await page.close();
  });
});
