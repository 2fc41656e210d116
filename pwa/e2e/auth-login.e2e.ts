import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { loginMessages, offlineMessage } from '@platform/schema/auth/auth.messages';
import { DEMO_PASSWORD, demoLogins, useServerAndBrowser } from '../../scripts/e2e/harness.ts';

describe('logging in', () => {
  const env = useServerAndBrowser();

  /** Each test is a new visitor: its own cookies and storage. */
  async function visitor(): Promise<Page> {
    return (await env.browser.newContext()).newPage();
  }
  const pathOf = (page: Page) => new URL(page.url()).pathname;
  const fillLogin = async (page: Page, identifier: string, password: string) => {
    await page.getByLabel('Username or email').fill(identifier);
    await page.getByLabel('Password', { exact: true }).fill(password);
  };
  const meStatus = async (page: Page) =>
    (await page.request.get(`${env.server.url}/api/me`)).status();

  it('logs a demo user in, showing the submitting state, and lands on /dashboard', async () => {
    const page = await visitor();
    await page.goto(`${env.server.url}/auth/login`);
    await page.getByRole('heading', { name: 'Log in to your account' }).waitFor();
    await fillLogin(page, demoLogins.owner.email, DEMO_PASSWORD);
    // Hold the request (not answer it) so the submitting state can be seen.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/auth/login', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const busy = page.getByRole('button', { name: 'Signing in…' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    release();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    expect(await meStatus(page)).toBe(200);
  });

  it('shows the required messages only after a submit attempt', async () => {
    const page = await visitor();
    await page.goto(`${env.server.url}/auth/login`);
    await page.getByLabel('Username or email').focus();
    await page.getByLabel('Password', { exact: true }).focus();
    expect(await page.getByText(loginMessages.identifierRequired).count()).toBe(0);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText(loginMessages.identifierRequired, { exact: true }).waitFor();
    await page.getByText(loginMessages.passwordRequired, { exact: true }).waitFor();
    expect(pathOf(page)).toBe('/auth/login');
  });

  it("refuses a wrong password with the 'Could not log in' alert", async () => {
    const page = await visitor();
    await page.goto(`${env.server.url}/auth/login`);
    await fillLogin(page, demoLogins.staff.email, 'not-the-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const alert = page.getByRole('alert');
    await alert.getByText(loginMessages.failureTitle, { exact: true }).waitFor();
    expect(await alert.getByText(loginMessages.failureBody, { exact: true }).isVisible()).toBe(
      true,
    );
    expect(pathOf(page)).toBe('/auth/login');
    expect(await meStatus(page)).toBe(401);
  });

  it('says so when the browser is offline', async () => {
    const page = await visitor();
    await page.goto(`${env.server.url}/auth/login`);
    await fillLogin(page, demoLogins.staff.email, DEMO_PASSWORD);
    await page.context().setOffline(true);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').getByText(offlineMessage, { exact: true }).waitFor();
    await page.context().setOffline(false);
  });

  it('signs a branded-app visitor in as that organisation’s customer', async () => {
    const page = await visitor();
    const sent = page.waitForRequest(
      (request) => request.url().endsWith('/auth/login') && request.method() === 'POST',
    );
    await page.goto(`${env.server.url}/auth/login?orgId=${env.server.seed.zipperOrgId}`);
    await fillLogin(page, demoLogins.parent.email, DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    expect((await sent).postDataJSON()).toMatchObject({
      profileType: 'use-customer',
      profileOrgId: env.server.seed.zipperOrgId,
    });
    await page.waitForURL((url) => !url.pathname.startsWith('/auth/'));
    const me = (await (await page.request.get(`${env.server.url}/api/me`)).json()) as {
      view: string;
      org: { id: string } | null;
    };
    expect(me.view).toBe('customer');
    expect(me.org?.id).toBe(env.server.seed.zipperOrgId);
  });

  it('prefills verifiedEmail and carries redirectTo and orgId to signup', async () => {
    const page = await visitor();
    const query = `verifiedEmail=${encodeURIComponent(demoLogins.parent.email)}&redirectTo=%2Fdashboard-customer&orgId=${env.server.seed.zipperOrgId}`;
    await page.goto(`${env.server.url}/auth/login?${query}`);
    expect(await page.getByLabel('Username or email').inputValue()).toBe(demoLogins.parent.email);
    const forgot = page.getByRole('link', { name: 'Forgot your password?' });
    expect(await forgot.getAttribute('href')).toBe('/auth/forgot-password');
    await page.getByRole('link', { name: "Don't have an account? Sign up" }).click();
    await page.waitForURL((url) => url.pathname === '/auth/signup');
    const params = new URL(page.url()).searchParams;
    expect(params.get('redirectTo')).toBe('/dashboard-customer');
    expect(params.get('orgId')).toBe(env.server.seed.zipperOrgId);
  });
});
