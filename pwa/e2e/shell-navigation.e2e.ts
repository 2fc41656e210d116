import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { demoLogins, logIn, useServerAndBrowser } from '../../scripts/e2e/harness.ts';

/** spec §2 Sidebar / User menu and §6 Roles and permissions, as each demo person sees them. */
describe('the navigation each person sees', () => {
  const env = useServerAndBrowser();

  async function signedIn(email: string): Promise<Page> {
    const page = await (await env.browser.newContext()).newPage();
    await logIn(page, env.server.url, email);
    await page.waitForURL((url) => url.pathname === '/dashboard');
    return page;
  }
  const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Sidebar' });
  const groupHeadings = (page: Page) =>
    sidebar(page).getByRole('heading', { level: 2 }).allTextContents();
  const sidebarLinks = (page: Page) => sidebar(page).getByRole('link').allTextContents();
  const comingSoon = (page: Page) => sidebar(page).locator('.nav-coming-soon');
  const comingSoonItems = (page: Page) => comingSoon(page).getByRole('listitem').allTextContents();
  async function userMenuItems(page: Page): Promise<string[]> {
    await page.getByRole('button', { name: /^User menu:/ }).click();
    const items = page.locator('.menu-list li');
    await items.first().waitFor();
    return (await items.allTextContents()).map((text) => text.trim());
  }

  it('links the owner to the built screens only, names the rest once under Coming soon', async () => {
    const page = await signedIn(demoLogins.owner.email);
    await sidebar(page).waitFor();
    expect(await groupHeadings(page)).toEqual(['Audiences', 'Goods & Services']);
    expect(await sidebarLinks(page)).toEqual([
      'Dashboard',
      'Time Tracking',
      'Organization',
      'Customers',
      'Point of Sale',
      'Products',
      'Schedule',
      'Give feedback',
    ]);
    await comingSoon(page)
      .getByText(/^Coming soon \(\d+\)$/)
      .click();
    expect(await comingSoonItems(page)).toEqual(
      expect.arrayContaining(['Leads', 'Forms', 'Reviews']),
    );
    expect(await comingSoonItems(page)).not.toContain('Point of Sale');
    expect(await comingSoonItems(page)).not.toContain('Schedule');
    expect(await comingSoon(page).getByRole('link').count()).toBe(0);
    expect(
      await sidebar(page).getByRole('link', { name: 'Give feedback' }).getAttribute('href'),
    ).toMatch(/^mailto:/);
    const card = page.getByRole('region', { name: 'Account' });
    expect(await card.getByRole('link', { name: 'Open customer app' }).getAttribute('href')).toBe(
      `/dashboard-customer/${env.server.seed.zipperOrgId}`,
    );
    await card.getByRole('link', { name: 'Enter kiosk mode' }).waitFor();
    await card.getByRole('link', { name: 'Time tracking' }).waitFor();
    // The org home greets and offers the same places as shortcuts.
    await page.getByRole('heading', { name: 'Welcome, Olivia' }).waitFor();
    // A deep link to a screen a later issue fills says so plainly.
    await page.goto(`${env.server.url}/dashboard/leads`);
    await page.getByRole('heading', { name: 'Leads', level: 1 }).waitFor();
    await page.getByText('This part of the platform is not built yet.').waitFor();
    const menu = await userMenuItems(page);
    expect(menu).toEqual([
      'Dashboard',
      'Settings',
      'Subscription & Billing',
      'Create organization',
      'Sign out',
    ]);
    expect(menu).not.toContain('Admin');
  });

  it('shows the staff member only Time Tracking, and no pages they hold no claim for', async () => {
    const page = await signedIn(demoLogins.staff.email);
    await sidebar(page).getByRole('link', { name: 'Time Tracking' }).waitFor();
    expect(await groupHeadings(page)).toEqual([]);
    expect(await sidebarLinks(page)).toEqual(['Dashboard', 'Time Tracking', 'Give feedback']);
    expect(await comingSoon(page).count()).toBe(0);
    await page.goto(`${env.server.url}/dashboard/crm`);
    await page.getByText('You do not have access to this part of the organization.').waitFor();
    await page.goto(`${env.server.url}/admin`);
    await page.getByText('You are not allowed to see this page.').waitFor();
  });

  it('hides Audiences, Point of Sale, Products and Schedule on the Jobber platform', async () => {
    const page = await signedIn(demoLogins.jobber.email);
    await comingSoon(page)
      .getByText(/^Coming soon/)
      .click();
    await comingSoon(page).getByRole('listitem').filter({ hasText: 'Forms' }).waitFor();
    expect(await groupHeadings(page)).not.toContain('Audiences');
    const shown = [...(await sidebarLinks(page)), ...(await comingSoonItems(page))];
    for (const hidden of ['Customers', 'Leads', 'Point of Sale', 'Products', 'Schedule'])
      expect(shown).not.toContain(hidden);
  });

  it("offers 'Admin' in the user menu to the admin only", async () => {
    const admin = await signedIn(demoLogins.admin.email);
    expect(await userMenuItems(admin)).toContain('Admin');
    await admin.getByRole('link', { name: 'Admin' }).click();
    await admin.getByRole('heading', { name: 'Admin', level: 1 }).waitFor();
    await admin.getByText('This part of the platform is not built yet.').waitFor();
    // The owner's menu (first test) has no Admin entry; the page refuses others (staff test).
  });

  it('gives the customer the customer navigation and no sidebar groups', async () => {
    const page = await signedIn(demoLogins.parent.email);
    const nav = page.getByRole('navigation', { name: 'Customer' });
    await nav.waitFor();
    expect(await nav.getByRole('link').allTextContents()).toEqual([
      'Dashboard',
      'My calendar',
      'Shop',
      'Purchase history',
      'Settings',
    ]);
    expect(await sidebar(page).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Audiences' }).count()).toBe(0);
    expect(await userMenuItems(page)).not.toContain('Subscription & Billing');
    // Switch accounts lists the child (spec §6: guardians act for their children).
    await page
      .getByRole('region', { name: 'Account' })
      .getByRole('button', { name: 'Switch accounts' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Switch accounts' });
    await dialog.getByRole('button', { name: 'Switch to Casey Parent' }).waitFor();
    await dialog.getByRole('button', { name: 'Switch to Casey Parent' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.getByRole('heading', { name: 'Hello, Casey' }).waitFor();
    // The child's session can go back to the guardian.
    await page.getByRole('button', { name: 'Switch accounts' }).click();
    await page.getByRole('button', { name: /Return to parent account/ }).click();
    await page.getByRole('heading', { name: 'Hello, Pat' }).waitFor();
  });
});
