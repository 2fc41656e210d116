import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { and, eq } from 'drizzle-orm';
import type { BrowserContext, Page } from 'playwright-core';
import { rosterItems } from '@platform/schema/db';
import { brandingMessages } from '@platform/schema/branding/branding.zod';
import { signupMessages } from '@platform/schema/auth/auth.messages';
import {
  demoLogins,
  launchBrowser,
  launchPersistent,
  logIn,
  startE2eServer,
  type E2eServer,
  watchForButton,
} from '../../scripts/e2e/harness.ts';

const PASSWORD = 'a-long-password-1';
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

/**
 * Issue 5: an organisation's customers get an app that is that organisation's own — its name,
 * logo and colours, its manifest, installable, and still itself offline. One persistent
 * profile, as a customer's phone: the steps build on each other.
 */
describe('the branded customer app', () => {
  let server: E2eServer;
  let profile: Awaited<ReturnType<typeof launchPersistent>>;
  let context: BrowserContext;
  let page: Page;
  let orgId: string;
  beforeAll(async () => {
    [server, profile] = await Promise.all([startE2eServer(), launchPersistent()]);
    context = profile.context;
    page = context.pages()[0] ?? (await context.newPage());
    orgId = server.seed.zipperOrgId;
  });
  afterAll(async () => {
    await profile?.close();
    await server?.close();
  });

  const brandMark = () => page.getByRole('link', { name: /Zipper/ }).first();
  const logo = () => page.locator('img.brand-logo');

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

  it('signs a customer up into the organisation, onto its dashboard, with its logo and no testimonials', async () => {
    await page.goto(`${server.url}/auth/signup?orgId=${orgId}`);
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    const brand = page.locator('.auth-brand');
    await brand.getByText('Zipper Fitness').waitFor();
    expect(await brand.locator('img').getAttribute('src')).toMatch(/^\/org-assets\//);
    expect(
      await page
        .getByRole('heading', { name: 'Trusted by small businesses across the US' })
        .count(),
    ).toBe(0);

    await page.getByLabel('Email', { exact: true }).fill('riley@customer.example');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByLabel('First name', { exact: true }).fill('Riley');
    await page.getByLabel('Last name', { exact: true }).fill('Runner');
    await page.getByRole('checkbox', { name: /terms of service/ }).check();
    await page.getByRole('checkbox', { name: /allow cookies/ }).check();
    const sawCreated = await watchForButton(page, signupMessages.created);
    await page.getByRole('button', { name: 'Create account' }).click();
    await sawCreated();
    await page.waitForURL((url) => url.pathname === `/dashboard-customer/${orgId}`);

    await logo().waitFor();
    expect(await logo().getAttribute('src')).toMatch(new RegExp(`^/org-assets/${orgId}/`));
    await page.getByText('Powered by Coaching Platform').waitFor();
    const nav = page.getByRole('navigation', { name: /customer/i });
    for (const name of ['Dashboard', 'My calendar', 'Shop', 'Purchase history', 'Settings']) {
      await nav.getByRole('link', { name }).waitFor();
    }
    expect(await page.title()).toBe('Zipper Fitness');
    // Staff see the new customer on their list.
    const [item] = await server.db
      .select()
      .from(rosterItems)
      .where(and(eq(rosterItems.orgId, orgId), eq(rosterItems.email, 'riley@customer.example')));
    expect(item).toMatchObject({ firstName: 'Riley', lastName: 'Runner', deleted: false });
  });

  it("is installable as the organisation's app, with its manifest", async () => {
    await waitForServiceWorker();
    // The service worker now serves the shell: the page itself must name the manifest.
    await page.reload();
    await logo().waitFor();
    const cdp = await context.newCDPSession(page);
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string };
    expect(manifest.url).toBe(`${server.url}/manifests/${orgId}.webmanifest`);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    expect(installabilityErrors).toEqual([]);
    await cdp.detach();
    const body = (await (await page.request.get(manifest.url)).json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      name: 'Zipper Fitness',
      short_name: 'Zipper',
      start_url: `/dashboard-customer/${orgId}`,
      display: 'standalone',
    });
  });

  it("offers 'Install app' under the organisation's name after the wait", async () => {
    await context.addInitScript(() => {
      window.addEventListener('beforeinstallprompt', () =>
        document.documentElement.setAttribute('data-e2e-install-offered', ''),
      );
    });
    await page.reload();
    await page.waitForSelector('html[data-e2e-install-offered]', {
      state: 'attached',
      timeout: 10_000,
    });
    const banner = page.getByRole('region', { name: 'Install app' });
    await banner.getByRole('button', { name: 'Install app' }).waitFor();
    expect(await banner.textContent()).toContain('Zipper Fitness');
    expect(await banner.locator('img').getAttribute('src')).toMatch(/^\/org-assets\//);
  });

  it("opens offline as the organisation's app, logo included", async () => {
    // What the device holds is what it was sent: the catalogue and the timetable must have
    // reached it before the link goes (under load that can take a while on two cores).
    await page.getByRole('status').filter({ hasText: 'Synced' }).waitFor({ timeout: 60_000 });
    await context.setOffline(true);
    try {
      await page.reload();
      await logo().waitFor();
      await expect
        .poll(() => logo().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeGreaterThan(0);
      expect(await brandMark().textContent()).toContain('Zipper Fitness');
      await page.getByText('Powered by Coaching Platform').waitFor();
      // Every customer page opens offline: its honest empty state, or what the device holds
      // (the demo's catalogue replicated to it).
      const nav = page.getByRole('navigation', { name: 'Customer' });
      const pages = [
        ['My calendar', 'Classes and events'],
        ['Shop', 'Unlimited membership'],
        ['Purchase history', 'No purchases yet'],
      ] as const;
      for (const [link, shown] of pages) {
        await nav.getByRole('link', { name: link }).click();
        await page.getByRole('heading', { level: 1, name: link }).waitFor();
        await page.getByRole('heading', { name: shown }).waitFor();
      }
      await nav.getByRole('link', { name: 'Shop' }).click();
      await page
        .getByText('You are offline. Buying needs a connection', { exact: false })
        .waitFor();
      await page.goto(`${server.url}/dashboard-customer/${orgId}/purchase-history`);
      await page.getByRole('heading', { name: 'No purchases yet' }).waitFor();
    } finally {
      await context.setOffline(false);
    }
  });

  it("follows staff's branding changes live: name and logo", async () => {
    await page.reload();
    await logo().waitFor();
    const browser = await launchBrowser();
    try {
      const staff = await (await browser.newContext()).newPage();
      await logIn(staff, server.url, demoLogins.owner.email);
      await staff.goto(`${server.url}/dashboard/organization-management`);
      await staff.getByRole('heading', { name: 'Branding' }).waitFor();
      await staff.getByLabel('App name').fill('Zipper Gym');
      await staff.getByRole('button', { name: 'Save branding' }).click();
      await staff.getByText(brandingMessages.saved).waitFor();

      const blue = await sharp({
        create: { width: 300, height: 300, channels: 3, background: '#1d4ed8' },
      })
        .png()
        .toBuffer();
      await staff
        .getByLabel(/Replace logo|Upload logo/)
        .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: blue });
      await staff.getByText(brandingMessages.logoSaved).waitFor();
      const newIcon = await staff.getByAltText('Your logo as the app icon').getAttribute('src');

      // The customer's open app hears of it through replication, without a reload.
      await page.getByRole('link', { name: /Zipper Gym/ }).waitFor({ timeout: 30_000 });
      await expect.poll(() => logo().getAttribute('src'), { timeout: 30_000 }).toBe(newIcon);
    } finally {
      await browser.close();
    }
  });

  it('tells iPhone visitors how to add the app to the home screen', async () => {
    const browser = await launchBrowser();
    try {
      const phone = await browser.newContext({
        userAgent: IPHONE_SAFARI,
        hasTouch: true,
        isMobile: true,
      });
      const visitor = await phone.newPage();
      // A slow branding answer: the offer waits for it rather than naming the platform first.
      await visitor.route('**/api/branding/*', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await route.continue();
      });
      await visitor.goto(`${server.url}/auth/login?orgId=${orgId}`);
      const banner = visitor.getByRole('region', { name: 'Install app' });
      await banner.getByText('Add to Home Screen').waitFor();
      expect(await banner.textContent()).toContain('Zipper');
      await visitor.unroute('**/api/branding/*');
      await banner.getByRole('button', { name: 'Got it' }).click();
      await banner.waitFor({ state: 'detached' });
      await visitor.reload();
      await visitor.getByRole('heading', { name: 'Log in to your account' }).waitFor();
      await visitor.waitForTimeout(1200);
      expect(await banner.count()).toBe(0);
    } finally {
      await browser.close();
    }
  });
});
