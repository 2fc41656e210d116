import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { TOAST_DURATION_MS } from '@platform/schema/app/constants';
import { organizationMessages } from '@platform/schema/organizations/organizations.zod';
import { demoLogins, logIn, useServerAndBrowser } from '../../scripts/e2e/harness.ts';

/** spec §2 Shared interface and §4 Cookie consent / Toast, through the real app and env.server. */
describe('the shared interface', () => {
  const env = useServerAndBrowser();

  const visitor = async (): Promise<Page> => (await env.browser.newContext()).newPage();
  const banner = (page: Page) => page.getByRole('region', { name: 'Cookie consent' });

  it('hides the cookie banner for good after Allow', async () => {
    const page = await visitor();
    await page.goto(`${env.server.url}/documents/cookies`);
    await banner(page).getByText('This site uses cookies.').waitFor();
    await banner(page).getByRole('button', { name: 'Allow' }).click();
    await banner(page).waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('heading', { name: 'Cookies', level: 1 }).waitFor();
    expect(await banner(page).count()).toBe(0);
  });

  it('hides the cookie banner for the session after Decline', async () => {
    const page = await visitor();
    await page.goto(`${env.server.url}/documents/terms-of-service`);
    await banner(page).getByRole('button', { name: 'Decline' }).click();
    await banner(page).waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('heading', { name: 'Terms of service' }).waitFor();
    expect(await banner(page).count()).toBe(0);
    // A new tab is a new session: the question comes back.
    const other = await page.context().newPage();
    await other.goto(`${env.server.url}/documents/terms-of-service`);
    await banner(other).getByText('This site uses cookies.').waitFor();
  });

  it('shows Page not found, with a way home, for an unknown address', async () => {
    const page = await visitor();
    await page.goto(`${env.server.url}/no/such/page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await page.getByRole('link', { name: 'Go to the home page' }).waitFor();
    // Visitors get the top navigation with its menus, Get started and Sign in.
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('button').allTextContents()).toEqual([
      'Platform',
      'Use cases',
      'Pricing',
      'Our customers',
      'Blog',
    ]);
    expect(await page.getByRole('link', { name: 'Get started' }).getAttribute('href')).toBe(
      '/auth/signup',
    );
    expect(await page.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
      '/auth/login',
    );
  });

  it('sends a signed-out visitor to the login page, remembering where they were going', async () => {
    const page = await visitor();
    await page.goto(`${env.server.url}/dashboard/crm`);
    await page.waitForURL((url) => url.pathname === '/auth/login');
    expect(new URL(page.url()).search).toBe('?redirectTo=%2Fdashboard%2Fcrm');
  });

  it('creates an organisation from the modal, with toasts that hide themselves or on a click', async () => {
    const page = await visitor();
    await logIn(page, env.server.url, demoLogins.owner.email);
    const account = page.getByRole('region', { name: 'Account' });
    const dialog = page.getByRole('dialog', { name: 'Create a new organization' });

    await account.getByRole('button', { name: 'Create organization' }).click();
    await dialog.getByLabel('Company name').fill('ab');
    await dialog.getByRole('button', { name: 'Create organization' }).click();
    await dialog.getByText(organizationMessages.nameTooShort, { exact: true }).waitFor();

    await dialog.getByLabel('Company name').fill('Harbor Yoga Studio');
    await dialog.getByRole('button', { name: 'Create organization' }).click();
    await dialog.waitFor({ state: 'detached' });
    const toast = page
      .getByRole('status', { name: 'Notifications' })
      .getByText(organizationMessages.created);
    await toast.waitFor();
    const shownAt = Date.now();
    await toast.waitFor({ state: 'detached', timeout: TOAST_DURATION_MS + 3000 });
    const shownFor = Date.now() - shownAt;
    expect(shownFor).toBeGreaterThan(TOAST_DURATION_MS - 1000);
    expect(shownFor).toBeLessThan(TOAST_DURATION_MS + 1500);

    // /api/me was reloaded: the new organisation is one of the accounts to switch to.
    await account.getByRole('button', { name: 'Switch accounts' }).click();
    const switcher = page.getByRole('dialog', { name: 'Switch accounts' });
    await switcher.getByRole('button', { name: /Harbor Yoga Studio/ }).waitFor();
    await page.keyboard.press('Escape');

    await account.getByRole('button', { name: 'Create organization' }).click();
    await dialog.getByLabel('Company name').fill('Second Studio');
    await dialog.getByRole('button', { name: 'Create organization' }).click();
    await toast.waitFor();
    const clickedAt = Date.now();
    await toast.click();
    await toast.waitFor({ state: 'detached' });
    expect(Date.now() - clickedAt).toBeLessThan(2000);
  });

  it('remembers a collapsed sidebar on the server', async () => {
    const page = await visitor();
    await logIn(page, env.server.url, demoLogins.jobber.email);
    const sidebar = page.getByRole('navigation', { name: 'Sidebar' });
    await sidebar.getByRole('link', { name: 'Dashboard' }).waitFor();
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/api/me/attributes') && r.status() === 200,
    );
    await sidebar.getByRole('button', { name: 'Collapse sidebar' }).click();
    await saved;
    await page.reload();
    await sidebar.getByRole('button', { name: 'Expand sidebar' }).waitFor();
    expect(await sidebar.getByRole('link', { name: 'Dashboard' }).isVisible()).toBe(false);
    await sidebar.getByRole('button', { name: 'Expand sidebar' }).click();
    await sidebar.getByRole('link', { name: 'Dashboard' }).waitFor();
  });
});
