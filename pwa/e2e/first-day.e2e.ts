import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signupMessages } from '@platform/schema/auth/auth.messages';
import {
  demoLogins,
  logIn,
  useServerAndBrowser,
  watchForButton,
} from '../../scripts/e2e/harness.ts';

const PASSWORD = 'a-long-password-1';

/**
 * Issue 14, the gym's own app from the first link: a family follows the customer link, joins,
 * switches to a child and stays inside the gym's app with the 'Acting as' bar; the owner finds
 * the link with its QR code, and a setup checklist on the home.
 */
describe('the first day', () => {
  const env = useServerAndBrowser();
  const orgId = () => env.server.seed.zipperOrgId;
  const actingAs = (page: Page) => page.getByRole('region', { name: 'Acting as' });

  it('takes a signed-out visitor from the customer link to the gym’s signup, into its app, and keeps a child’s account in it', async () => {
    const page = await (await env.browser.newContext()).newPage();
    await page.goto(`${env.server.url}/dashboard-customer/${orgId()}`);
    // A first visit on this device: the gym's own signup (customer flow, its name), not the
    // platform's account-type chooser.
    await page.waitForURL((url) => url.pathname === '/auth/signup');
    await page.getByRole('heading', { name: 'Details' }).waitFor();
    await page.locator('.auth-brand').getByText('Zipper Fitness').waitFor();
    expect(await page.getByRole('button', { name: /^Organization/ }).count()).toBe(0);

    await page.getByLabel('Email', { exact: true }).fill('pia@family.example');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByLabel('First name', { exact: true }).fill('Pia');
    await page.getByLabel('Last name', { exact: true }).fill('Parent');
    await page
      .getByRole('checkbox', { name: 'I am a parent/guardian managing payments for children' })
      .check();
    const child = page.getByRole('group', { name: 'Child 1' });
    await child.getByLabel(/^First name/).fill('Mia');
    await child.getByLabel(/^Last name/).fill('Parent');
    await page.getByRole('checkbox', { name: /terms of service/ }).check();
    await page.getByRole('checkbox', { name: /allow cookies/ }).check();
    const sawCreated = await watchForButton(page, signupMessages.created);
    await page.getByRole('button', { name: 'Create account' }).click();
    await sawCreated();
    await page.waitForURL((url) => url.pathname === `/dashboard-customer/${orgId()}`);
    await page.getByText('Powered by Coaching Platform').waitFor();
    // A parent's app offers no organisation to create and not itself to open.
    const card = page.getByRole('region', { name: 'Account' });
    await card.getByRole('button', { name: 'Switch accounts' }).waitFor();
    expect(await card.getByRole('button', { name: 'Create organization' }).count()).toBe(0);
    expect(await card.getByRole('link', { name: 'Open customer app' }).count()).toBe(0);
    expect(await actingAs(page).count()).toBe(0);

    await card.getByRole('button', { name: 'Switch accounts' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Switch to Mia Parent' }).click();
    await page.waitForURL((url) => url.pathname === `/dashboard-customer/${orgId()}`);
    await actingAs(page).getByText('Mia Parent').waitFor();
    await page.getByText('Powered by Coaching Platform').waitFor();
    // The bar stays on every page of the app.
    await page
      .getByRole('navigation', { name: /customer/i })
      .getByRole('link', { name: 'Shop' })
      .click();
    await page.waitForURL((url) => url.pathname === `/dashboard-customer/${orgId()}/shop`);
    await actingAs(page).getByText('Mia Parent').waitFor();

    await actingAs(page).getByRole('button', { name: 'Switch back' }).click();
    await page.waitForURL((url) => url.pathname === `/dashboard-customer/${orgId()}`);
    await page.getByRole('region', { name: 'Account' }).getByText('Pia Parent').waitFor();
    expect(await actingAs(page).count()).toBe(0);
    await page.context().close();
  });

  it('sends a returning visitor to the gym’s sign-in, carrying its id', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await logIn(page, env.server.url, demoLogins.parent.email);
    // Signed in as far as the device knows (the app remembers it once it has read who is
    // signed in): logging out before that would leave a device nobody signed in on.
    await page.waitForFunction(() => localStorage.getItem('signed-in-before:v1') === '1');
    await page.request.post(`${env.server.url}/auth/logout`, {
      headers: { origin: env.server.url },
    });
    await page.goto(`${env.server.url}/dashboard-customer/${orgId()}`);
    await page.waitForURL((url) => url.pathname === '/auth/login');
    expect(new URL(page.url()).searchParams.get('orgId')).toBe(orgId());
    await page.locator('.auth-brand').getByText('Zipper Fitness').waitFor();
    await context.close();
  });

  it('shows the owner the customer link with a printable QR code, and a setup checklist at home', async () => {
    // A new organisation: the demo one is set up already (its checklist is done and hidden).
    const page = await (await env.browser.newContext()).newPage();
    await page.goto(`${env.server.url}/auth/signup`);
    const created = await page.request.post(`${env.server.url}/api/auth/create-account`, {
      headers: { origin: env.server.url },
      data: {
        action: 'signup',
        signupDto: {
          email: 'omar@new-gym.example',
          password: PASSWORD,
          firstName: 'Omar',
          lastName: 'Owner',
          companyName: 'New Gym',
        },
      },
    });
    expect(created.ok()).toBe(true);
    await page.goto(`${env.server.url}/dashboard`);
    const checklist = page.getByRole('region', { name: 'Set up your business' });
    await checklist.waitFor();
    expect(await checklist.getByRole('progressbar').getAttribute('value')).toBe('0');
    await checklist.getByRole('link', { name: 'Brand your customer app' }).waitFor();
    await checklist.getByText('Publish your class schedule').waitFor();
    await page.getByRole('region', { name: 'Today' }).getByText('On the clock now').waitFor();

    await page.goto(`${env.server.url}/dashboard/organization-management`);
    const qr = page.getByRole('img', { name: /QR code that opens New Gym/ });
    await qr.waitFor();
    expect(await qr.locator('svg').count()).toBe(1);
    await page.getByRole('button', { name: 'Print QR code' }).waitFor();

    // A theme colour too light for white text is explained, with the nearest one that reads.
    const theme = page.getByLabel('Theme colour', { exact: true });
    await theme.fill('#fde68a');
    await page.getByText(/White text on #fde68a has a contrast of 1\.\d:1/).waitFor();
    const use = page.getByRole('button', { name: /^Use #[0-9a-f]{6}, the nearest colour/ });
    const suggested = (await use.textContent())?.match(/#[0-9a-f]{6}/)?.[0];
    await use.click();
    expect(await theme.inputValue()).toBe(suggested);
    expect(await page.getByText(/White text on/).count()).toBe(0);

    // The gym's own waiver replaces the platform's on its branded signup.
    await page
      .getByLabel('Waiver text')
      .fill('Lift safely.\n\nAsk a coach before your first class.');
    await page.getByRole('button', { name: 'Save waiver' }).click();
    await page.getByText('Your customers see your own waiver when they sign up.').waitFor();
    const { org } = (await (await page.request.get(`${env.server.url}/api/me`)).json()) as {
      org: { id: string };
    };
    const visitor = await (await env.browser.newContext()).newPage();
    await visitor.goto(`${env.server.url}/dashboard-customer/${org.id}`);
    await visitor.waitForURL((url) => url.pathname === '/auth/signup');
    const waiverLink = visitor.getByRole('link', { name: 'waiver of liability' });
    expect(await waiverLink.getAttribute('href')).toBe(
      `/documents/waiver-of-liability?orgId=${org.id}`,
    );
    await visitor.goto(`${env.server.url}/documents/waiver-of-liability?orgId=${org.id}`);
    await visitor.getByText('Ask a coach before your first class.').waitFor();
    await visitor.getByText('New Gym', { exact: true }).first().waitFor();
    await visitor.context().close();
    await page.context().close();
  });
});
