import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, type AxeViolation } from '../../scripts/e2e/axe.ts';
import { demoLogins, logIn, useServerAndBrowser } from '../../scripts/e2e/harness.ts';

const widths = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

/**
 * Issue 14: axe-core over every main screen and open modal, at phone and desktop widths, as the
 * owner, an employee, a parent and a visitor: zero violations of any impact.
 */
describe('accessibility (axe-core)', () => {
  const env = useServerAndBrowser();
  const orgId = () => env.server.seed.zipperOrgId;

  async function pageAt(browser: Browser, width: number, height: number): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height } });
    return context.newPage();
  }

  /**
   * The page settled: loaded, fonts in, no loading message left, animations done. (Not
   * 'networkidle': the live stream stays open.)
   */
  async function settle(page: Page) {
    await page.waitForLoadState('load');
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    await page
      .getByText(/^Loading/)
      .first()
      .waitFor({ state: 'detached', timeout: 10_000 })
      .catch(() => undefined);
    await page.waitForTimeout(400);
  }

  async function check(page: Page, screen: string, found: Record<string, AxeViolation[]>) {
    await settle(page);
    const violations = await axeViolations(page);
    if (violations.length > 0) found[screen] = violations;
  }

  for (const size of widths) {
    it(
      `finds no violation on the visitor's, owner's and employee's screens (${size.name})`,
      { timeout: 240_000 },
      async () => {
        const found: Record<string, AxeViolation[]> = {};
        const page = await pageAt(env.browser, size.width, size.height);
        const url = env.server.url;
        for (const path of [
          '/auth/login',
          '/auth/signup',
          `/auth/signup?orgId=${orgId()}`,
          '/auth/forgot-password',
          '/documents/waiver-of-liability',
        ]) {
          await page.goto(`${url}${path}`);
          await check(page, `visitor ${path}`, found);
        }

        await logIn(page, url, demoLogins.owner.email);
        for (const path of [
          '/dashboard',
          '/dashboard/organization-management',
          '/dashboard/crm',
          '/dashboard/crm/import',
          '/dashboard/time-tracking',
          '/dashboard/packages',
          '/dashboard/settings',
        ]) {
          await page.goto(`${url}${path}`);
          await page.getByRole('heading', { level: 1 }).first().waitFor();
          await check(page, `owner ${path}`, found);
        }
        // A customer profile, and the modals the owner opens most.
        await page.goto(`${url}/dashboard/crm`);
        await page.getByRole('table', { name: 'Customers' }).getByRole('link').first().click();
        await page.waitForURL((u) => u.pathname.startsWith('/dashboard/crm/customers/'));
        // The profile itself, not its loading state: the customer's details are drawn.
        await page.getByRole('heading', { level: 1, name: /\S/ }).first().waitFor();
        await page.getByText('Loading customer…').waitFor({ state: 'hidden' });
        await check(page, 'owner customer profile', found);
        await page.goto(`${url}/dashboard/crm`);
        await page.getByRole('button', { name: 'Add customer' }).click();
        await page.getByRole('dialog', { name: 'Add customer' }).waitFor();
        await check(page, 'owner Add customer modal', found);
        await page.keyboard.press('Escape');
        if (size.name === 'phone')
          await page.getByRole('button', { name: 'Menu', exact: true }).click();
        await page
          .getByRole('region', { name: 'Account' })
          .getByRole('button', { name: 'Switch accounts' })
          .click();
        await page.getByRole('dialog', { name: 'Switch accounts' }).waitFor();
        await check(page, 'owner Switch accounts modal', found);
        await page.keyboard.press('Escape');
        await page.goto(`${url}/dashboard/organization-management`);
        await page.getByRole('heading', { name: 'Team', level: 2 }).waitFor();
        await page.getByRole('button', { name: 'Invite to the team' }).click();
        await page.getByRole('dialog', { name: 'Invite to the team' }).waitFor();
        await check(page, 'owner Invite to the team modal', found);
        await page.keyboard.press('Escape');
        await page.goto(`${url}/dashboard/packages`);
        await page.getByRole('button', { name: 'New product' }).click();
        const productDialog = page.getByRole('dialog', { name: 'New product' });
        await productDialog.getByRole('radio', { name: 'One-time purchase' }).check();
        await productDialog.getByRole('button', { name: 'Add a punch card' }).click();
        await check(page, 'owner New product modal', found);
        await page.keyboard.press('Escape');
        await page.getByRole('button', { name: 'New coupon' }).click();
        await page.getByRole('dialog', { name: 'New coupon' }).waitFor();
        await check(page, 'owner New coupon modal', found);
        await page.keyboard.press('Escape');
        await page.goto(`${url}/auth/kiosk-mode`);
        await page.getByRole('button', { name: 'Start kiosk mode' }).waitFor();
        await check(page, 'owner kiosk start', found);
        await page.context().close();

        const staff = await pageAt(env.browser, size.width, size.height);
        await logIn(staff, url, demoLogins.staff.email);
        await staff.goto(`${url}/dashboard/time-tracking`);
        await staff.getByRole('heading', { level: 1 }).first().waitFor();
        await check(staff, 'employee time tracking', found);
        await staff.context().close();

        expect(found).toEqual({});
      },
    );

    it(
      `finds no violation in the parent's branded app (${size.name})`,
      { timeout: 180_000 },
      async () => {
        const found: Record<string, AxeViolation[]> = {};
        const page = await pageAt(env.browser, size.width, size.height);
        const url = env.server.url;
        await logIn(page, url, demoLogins.parent.email);
        for (const path of ['', '/my-calendar', '/shop', '/purchase-history', '/settings']) {
          await page.goto(`${url}/dashboard-customer/${orgId()}${path}`);
          await page.getByRole('heading', { level: 1 }).first().waitFor();
          await check(page, `parent app${path || ' home'}`, found);
        }
        await page.getByRole('button', { name: 'Manage child accounts' }).click();
        await page.getByRole('dialog', { name: 'Manage child accounts' }).waitFor();
        await check(page, 'parent Manage child accounts modal', found);
        await page.keyboard.press('Escape');
        await page.context().close();
        expect(found).toEqual({});
      },
    );
  }
});
