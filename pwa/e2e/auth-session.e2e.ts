import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { googleMessages } from '@platform/schema/auth/auth.messages';
import {
  DEMO_PASSWORD,
  demoLogins,
  logIn,
  useServerAndBrowser,
} from '../../scripts/e2e/harness.ts';

describe('where a session starts and ends', () => {
  const env = useServerAndBrowser();

  /** Each test is a new visitor: its own cookies and storage. */
  async function visitor(): Promise<Page> {
    return (await env.browser.newContext()).newPage();
  }
  const meStatus = async (page: Page) =>
    (await page.request.get(`${env.server.url}/api/me`)).status();

  /** Logs in from /auth/login?redirectTo=…, recording what the server answered (passed through untouched). */
  async function logInWithRedirect(page: Page, redirectTo: string): Promise<string[]> {
    const answers: string[] = [];
    await page.route('**/auth/login', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      const response = await route.fetch();
      answers.push(await response.text());
      await route.fulfill({ response });
    });
    await page.goto(`${env.server.url}/auth/login?redirectTo=${encodeURIComponent(redirectTo)}`);
    await page.getByLabel('Username or email').fill(demoLogins.parent.email);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    return answers;
  }

  it('honours a same-origin redirectTo', async () => {
    const page = await visitor();
    const answers = await logInWithRedirect(page, '/dashboard/settings?tab=profile');
    await page.waitForURL((url) => url.pathname === '/dashboard/settings');
    expect(new URL(page.url()).search).toBe('?tab=profile');
    expect(answers).toEqual(['/dashboard/settings?tab=profile']);
  });

  for (const target of ['https://evil.example/x', '//evil.example', '/..//evil.example']) {
    it(`refuses redirectTo=${target} and lands on our own /dashboard`, async () => {
      const page = await visitor();
      const answers = await logInWithRedirect(page, target);
      await page.waitForURL((url) => url.pathname === '/dashboard');
      expect(new URL(page.url()).origin).toBe(env.server.url);
      // The server refuses it itself, not only the page.
      expect(answers).toEqual(['/dashboard']);
    });
  }

  it('asks on GET /auth/logout, and signs out only when its button posts', async () => {
    const page = await visitor();
    await logIn(page, env.server.url, demoLogins.staff.email);
    expect(await meStatus(page)).toBe(200);
    await page.goto(`${env.server.url}/auth/logout`);
    await page.getByRole('heading', { name: 'Sign out?' }).waitFor();
    // Opening the page (as a link or an image from another site would) signs nobody out.
    expect(await meStatus(page)).toBe(200);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/login');
    await page.getByRole('heading', { name: 'Log in to your account' }).waitFor();
    expect(await meStatus(page)).toBe(401);
  });

  it("signs out from the app's user menu", async () => {
    const page = await visitor();
    await logIn(page, env.server.url, demoLogins.staff.email);
    await page.getByRole('button', { name: /^User menu:/ }).click();
    await page.getByRole('link', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/login');
    expect(await meStatus(page)).toBe(401);
  });

  it('offers no Google button where Google is not configured; its page explains and loads nothing', async () => {
    const page = await visitor();
    const googleRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('accounts.google.com')) googleRequests.push(request.url());
    });
    await page.goto(`${env.server.url}/auth/login?redirectTo=%2Fdashboard%2Fcrm`);
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    // The configuration answer has arrived (the page asks once) before the absence is read.
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('button', { name: /Google/ }).count()).toBe(0);
    await page.goto(`${env.server.url}/auth/signup?preventOrgFields=1`);
    await page.getByRole('button', { name: 'Create account' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('button', { name: /Google/ }).count()).toBe(0);

    await page.goto(`${env.server.url}/auth/login-with-google?redirectTo=%2Fdashboard%2Fcrm`);
    await page
      .getByRole('alert')
      .getByText(googleMessages.notConfigured, { exact: true })
      .waitFor();
    await page.getByRole('link', { name: 'Back to log in' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/login');
    expect(new URL(page.url()).searchParams.get('redirectTo')).toBe('/dashboard/crm');
    expect(googleRequests).toEqual([]);
  });

  it('explains a failed Google sign-in (?error=google, ?error=google-unavailable)', async () => {
    const page = await visitor();
    await page.goto(`${env.server.url}/auth/login?error=google`);
    await page.getByRole('alert').getByText(googleMessages.invalidToken, { exact: true }).waitFor();
    await page.goto(`${env.server.url}/auth/login?error=google-unavailable`);
    await page
      .getByRole('alert')
      .getByText(googleMessages.notConfigured, { exact: true })
      .waitFor();
  });
});
