import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  demoLogins,
  launchBrowser,
  logIn,
  startE2eServer,
  type E2eServer,
} from '../../scripts/e2e/harness.ts';

type Violation = { page: string; directive: string; blocked: string; sample: string };

/**
 * The server's Content-Security-Policy against the real app in Chromium: the main screens
 * run without one violation — first from the network, then from the service worker's copy —
 * and what the policy does not allow is really blocked.
 */
describe('the Content-Security-Policy in the browser', () => {
  let server: E2eServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([
      // A client id makes /auth/login-with-google load GIS (a stand-in, below).
      startE2eServer({ GOOGLE_CLIENT_ID: 'e2e-client.apps.googleusercontent.com' }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A new visitor whose every document reports its violations (events and console). */
  async function watchedVisitor(): Promise<{
    context: BrowserContext;
    page: Page;
    violations: Violation[];
  }> {
    const violations: Violation[] = [];
    const context = await browser.newContext();
    await context.exposeBinding('__reportCspViolation', (_source, violation: Violation) => {
      violations.push(violation);
    });
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const report = (window as unknown as { __reportCspViolation: (v: object) => void })
          .__reportCspViolation;
        report({
          page: location.pathname,
          directive: event.violatedDirective,
          blocked: event.blockedURI,
          sample: event.sample,
        });
      });
    });
    const page = await context.newPage();
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) {
        violations.push({
          page: page.url(),
          directive: 'console',
          blocked: '',
          sample: message.text(),
        });
      }
    });
    return { context, page, violations };
  }
  /** Violation events arrive as tasks of their own: give them a moment. */
  const settle = (page: Page) => page.waitForTimeout(300);
  const controlledByServiceWorker = (page: Page) =>
    page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, {
      timeout: 15_000,
    });

  it('lets the login page, the dashboard with a dialog open and the staff screens run without a violation', async () => {
    const { context, page, violations } = await watchedVisitor();
    await page.goto(`${server.url}/auth/login`);
    await page.getByRole('heading', { name: 'Log in to your account' }).waitFor();
    await logIn(page, server.url, demoLogins.owner.email);
    await page.getByRole('heading', { name: 'Welcome, Olivia' }).waitFor();
    await page
      .getByRole('region', { name: 'Account' })
      .getByRole('button', { name: 'Create organization' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Create a new organization' });
    await dialog.getByLabel('Company name').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    for (const [path, heading] of [
      ['/dashboard/crm', 'Customers'],
      ['/dashboard/time-tracking', 'Time Tracking'],
      ['/dashboard/organization-management', 'Branding'],
      // FullCalendar lays the week out through the DOM's style object, which the policy allows.
      ['/dashboard/calendar', 'Schedule'],
    ] as const) {
      await page.goto(`${server.url}${path}`);
      await page.getByRole('heading', { name: heading }).first().waitFor();
    }
    // Next week always has the demo's Monday yoga, whatever day this runs.
    await page.getByRole('button', { name: 'Next Week' }).click();
    await page
      .getByRole('button', { name: /Morning yoga/ })
      .first()
      .waitFor({ timeout: 30_000 });
    // Again from the service worker's copy of the shell.
    await controlledByServiceWorker(page);
    await page.goto(`${server.url}/dashboard`);
    await page.getByRole('heading', { name: 'Welcome, Olivia' }).waitFor();
    await settle(page);
    expect(violations).toEqual([]);
    await context.close();
  });

  it("lets the organisation's branded customer app run without a violation, logo and all", async () => {
    const { context, page, violations } = await watchedVisitor();
    const app = `${server.url}/dashboard-customer/${server.seed.zipperOrgId}`;
    await page.goto(`${server.url}/auth/login?orgId=${server.seed.zipperOrgId}`);
    await logIn(page, server.url, demoLogins.parent.email);
    await page.goto(app);
    await page.getByText('Powered by Coaching Platform').waitFor();
    const nav = page.getByRole('navigation', { name: 'Customer' });
    for (const link of ['My calendar', 'Shop', 'Purchase history', 'Settings']) {
      await nav.getByRole('link', { name: link }).click();
      await page.getByRole('heading', { level: 1, name: link }).waitFor();
    }
    await controlledByServiceWorker(page);
    await page.goto(app);
    await page.getByText('Powered by Coaching Platform').waitFor();
    await settle(page);
    expect(violations).toEqual([]);
    await context.close();
  });

  it("blocks scripts and frames from elsewhere, and inline script that is not the shell's", async () => {
    const { context, page, violations } = await watchedVisitor();
    await page.goto(`${server.url}/auth/login`);
    await page.getByRole('heading', { name: 'Log in to your account' }).waitFor();
    await page.evaluate(() => {
      const outside = document.createElement('script');
      outside.src = 'https://accounts.google.com/gsi/client';
      document.head.append(outside);
      const inline = document.createElement('script');
      inline.textContent = 'window.injected = true;';
      document.head.append(inline);
      const frame = document.createElement('iframe');
      frame.src = 'https://evil.example/';
      document.body.append(frame);
    });
    await settle(page);
    expect(
      await page.evaluate(() => (window as unknown as { injected?: boolean }).injected),
    ).toBeUndefined();
    const events = violations.filter((v) => v.directive !== 'console');
    expect(events.map((v) => `${v.directive} ${v.blocked}`).sort()).toEqual([
      'frame-src https://evil.example',
      'script-src-elem https://accounts.google.com/gsi/client',
      'script-src-elem inline',
    ]);
    await context.close();
  });

  it("loads Google's script on its own page, also once the service worker serves the app", async () => {
    const { context, page, violations } = await watchedVisitor();
    await page.route('https://accounts.google.com/gsi/client', (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        body: `window.google = { accounts: { id: {
          initialize() {},
          renderButton(parent) { const b = document.createElement('button'); b.textContent = 'GIS stand-in'; parent.append(b); },
        } } };`,
      }),
    );
    await page.goto(`${server.url}/auth/login`);
    await controlledByServiceWorker(page);
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/login-with-google');
    await page.getByRole('button', { name: 'GIS stand-in' }).waitFor();
    await settle(page);
    expect(violations).toEqual([]);
    await context.close();
  });
});
