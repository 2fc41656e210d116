import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { INSTALL_PROMPT_WAIT_MS } from '@platform/schema/app/constants';
import {
  demoLogins,
  launchPersistent,
  logIn,
  startE2eServer,
  type E2eServer,
} from '../../scripts/e2e/harness.ts';

/**
 * spec §1/§9 installable PWA that keeps working offline. One persistent profile, as a real
 * device: the steps build on each other (service worker installed, then signed in, then out).
 */
describe('offline and installable', () => {
  let server: E2eServer;
  let profile: Awaited<ReturnType<typeof launchPersistent>>;
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    [server, profile] = await Promise.all([startE2eServer(), launchPersistent()]);
    context = profile.context;
    page = context.pages()[0] ?? (await context.newPage());
  });
  afterAll(async () => {
    await profile?.close();
    await server?.close();
  });

  /** STACK-NOTES: only a controlled page is served from the cache; reload once after install. */
  async function waitForServiceWorker(): Promise<void> {
    const controlled = () =>
      page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, {
        timeout: 10_000,
      });
    try {
      await controlled();
    } catch {
      await page.reload();
      await controlled();
    }
  }
  // The page's offline indicator (the sync indicator beside it may say Offline too).
  const offlineIndicator = () =>
    page.locator('.offline-indicator').filter({ hasText: /^Offline$/ });
  const needsConnection = () =>
    page.getByText('You are offline. This page needs a connection the first time.');

  it('opens the login page offline once the service worker has it, and says it is offline', async () => {
    await page.goto(`${server.url}/auth/login`);
    await page.getByRole('heading', { name: 'Log in to your account' }).waitFor();
    await waitForServiceWorker();
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: 'Log in to your account' }).waitFor();
    await offlineIndicator().waitFor();
    // No one has signed in on this device: the dashboard cannot know who you are.
    await page.goto(`${server.url}/dashboard`);
    await needsConnection().waitFor();
    await context.setOffline(false);
  });

  it('is installable: Chromium reports no installability errors', async () => {
    await page.goto(`${server.url}/auth/login`);
    await waitForServiceWorker();
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    expect(installabilityErrors).toEqual([]);
    await cdp.detach();
  });

  it("offers 'Install app' after the browser allows it, and remembers 'Not now'", async () => {
    // Record when Chromium offers installation, to know the banner had its chance to appear.
    await context.addInitScript(() => {
      window.addEventListener('beforeinstallprompt', () =>
        document.documentElement.setAttribute('data-e2e-install-offered', ''),
      );
    });
    const offered = () =>
      page.waitForSelector('html[data-e2e-install-offered]', {
        state: 'attached',
        timeout: 10_000,
      });
    await page.reload();
    await offered();
    const installBanner = page.getByRole('region', { name: 'Install app' });
    await installBanner.getByRole('button', { name: 'Install app' }).waitFor();
    await installBanner.getByRole('button', { name: 'Not now' }).click();
    await installBanner.waitFor({ state: 'detached' });
    await page.reload();
    await offered();
    await page.waitForTimeout(INSTALL_PROMPT_WAIT_MS + 700);
    expect(await installBanner.count()).toBe(0);
  });

  it('draws the signed-in shell offline from the last /api/me, and forgets it on sign-out', async () => {
    await logIn(page, server.url, demoLogins.owner.email);
    const sidebar = page.getByRole('navigation', { name: 'Sidebar' });
    await sidebar.getByRole('heading', { name: 'Audiences' }).waitFor();

    await context.setOffline(true);
    await page.reload();
    await sidebar.getByRole('heading', { name: 'Audiences' }).waitFor();
    await offlineIndicator().waitFor();
    await context.setOffline(false);

    await page.getByRole('button', { name: /^User menu:/ }).click();
    await page.getByRole('link', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/login');
    await context.setOffline(true);
    await page.goto(`${server.url}/dashboard`);
    await needsConnection().waitFor();
    expect(await sidebar.count()).toBe(0);
    await context.setOffline(false);
  });
});
