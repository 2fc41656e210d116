import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signupMessages } from '@platform/schema/auth/auth.messages';
import { familyMessages } from '@platform/schema/families/families.messages';
import { demoLogins, useServerAndBrowser } from '../../scripts/e2e/harness.ts';

const PASSWORD = 'a-long-password-1';

describe('signing up', () => {
  const env = useServerAndBrowser();

  // No service worker here: signing up is not about the offline shell, and a worker serving the
  // redirect's page would pass it by page.route, letting 'Created!' vanish before it is read.
  async function visitor(): Promise<Page> {
    return (await env.browser.newContext({ serviceWorkers: 'block' })).newPage();
  }
  /** Holds the page the signup redirects to until `release` is called. */
  async function holdRedirect(page: Page, path: string): Promise<() => void> {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === path,
      async (route) => {
        await held;
        await route.continue();
      },
    );
    return release;
  }
  const testimonials = (page: Page) =>
    page.getByRole('heading', { name: 'Trusted by small businesses across the US' });
  const typeChoice = (page: Page, name: 'Customer' | 'Organization') =>
    page.getByRole('button', { name: new RegExp(`^${name}`) });

  async function fillDetails(
    page: Page,
    person: { email?: string; firstName: string; lastName: string },
  ) {
    if (person.email) await page.getByLabel('Email', { exact: true }).fill(person.email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByLabel('First name', { exact: true }).fill(person.firstName);
    await page.getByLabel('Last name', { exact: true }).fill(person.lastName);
  }
  async function agree(page: Page) {
    await page.getByRole('checkbox', { name: /terms of service/ }).check();
    await page.getByRole('checkbox', { name: /allow cookies/ }).check();
  }
  const me = async (page: Page) =>
    (await (await page.request.get(`${env.server.url}/api/me`)).json()) as {
      email: string;
      view: string;
      org: { label: string } | null;
      children: { fullName: string }[];
    };

  it('creates an organisation in two steps and lands on /dashboard/sites/create', async () => {
    const page = await visitor();
    await page.goto(`${env.server.url}/auth/signup`);
    await testimonials(page).waitFor();
    expect(await page.getByText('I run a business').isVisible()).toBe(true);
    await typeChoice(page, 'Organization').click();
    await page.getByRole('heading', { name: 'Company info' }).waitFor();
    await page.getByLabel('Company name').fill('Northside Strength');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Details' }).waitFor();
    await fillDetails(page, {
      email: 'nora@northside.example',
      firstName: 'Nora',
      lastName: 'North',
    });
    // Back keeps both steps' answers.
    await page.getByRole('button', { name: 'Back' }).click();
    expect(await page.getByLabel('Company name').inputValue()).toBe('Northside Strength');
    await page.getByRole('button', { name: 'Continue' }).click();
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(
      'nora@northside.example',
    );
    expect(await page.getByLabel('First name', { exact: true }).inputValue()).toBe('Nora');
    await agree(page);
    // The redirect follows 'Created!' after 750 ms: hold its page back until the colour is read,
    // so a slow machine cannot navigate away mid-check.
    const releaseRedirect = await holdRedirect(page, '/dashboard/sites/create');
    await page.getByRole('button', { name: 'Create account' }).click();
    const created = page.getByRole('button', { name: signupMessages.created });
    await created.waitFor();
    // spec §4: 'Created!' in green.
    const background = await created.evaluate((button) => getComputedStyle(button).backgroundColor);
    releaseRedirect();
    const [red = 0, green = 0, blue = 0] = background.match(/\d+/g)?.map(Number) ?? [];
    expect(green).toBeGreaterThan(red);
    expect(green).toBeGreaterThan(blue);
    await page.waitForURL((url) => url.pathname === '/dashboard/sites/create');
    const user = await me(page);
    expect(user.view).toBe('org');
    expect(user.org?.label).toBe('Northside Strength');
  });

  it('creates a customer with a child and lands on /dashboard', async () => {
    const page = await visitor();
    await page.goto(`${env.server.url}/auth/signup`);
    await typeChoice(page, 'Customer').click();
    await page.getByRole('heading', { name: 'Details' }).waitFor();
    await fillDetails(page, {
      email: 'gail@guardian.example',
      firstName: 'Gail',
      lastName: 'Guardian',
    });
    await page
      .getByRole('checkbox', { name: 'I am a parent/guardian managing payments for children' })
      .check();
    const first = page.getByRole('group', { name: 'Child 1' });
    await first.waitFor();
    expect(await page.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
    await page.getByRole('button', { name: 'Add another child' }).click();
    expect(await page.getByRole('button', { name: /^Remove/ }).count()).toBe(2);
    await page
      .getByRole('group', { name: 'Child 2' })
      .getByRole('button', { name: /^Remove/ })
      .click();
    expect(await page.getByRole('group', { name: 'Child 2' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
    await first.getByLabel(/^First name/).fill('Kit');
    await first.getByLabel(/^Last name/).fill('Guardian');
    await first.getByLabel(/^Email \(optional\)/).fill('kit@guardian.example');
    await agree(page);
    const releaseRedirect = await holdRedirect(page, '/dashboard');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('button', { name: signupMessages.created }).waitFor();
    releaseRedirect();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    const user = await me(page);
    expect(user.view).toBe('customer');
    // Kit has an address: Kit confirms Gail before Gail acts for Kit (decision 0035), so the
    // family list shows Kit awaiting confirmation and the account is not yet one to switch to.
    expect(user.children).toEqual([]);
    await page.goto(`${env.server.url}/dashboard/settings`);
    await page.getByRole('button', { name: 'Manage child accounts' }).click();
    await page
      .getByRole('dialog')
      .getByRole('listitem')
      .filter({ hasText: 'Kit Guardian' })
      .getByText(familyMessages.awaitingConfirmation)
      .waitFor();
  });

  it("shows a taken email in a failure box with a 'Forgot your password?' link", async () => {
    const page = await visitor();
    await page.goto(`${env.server.url}/auth/signup?preventOrgFields=true`);
    await fillDetails(page, {
      email: demoLogins.owner.email,
      firstName: 'Olivia',
      lastName: 'Again',
    });
    await agree(page);
    await page.getByRole('button', { name: 'Create account' }).click();
    const alert = page.getByRole('alert').filter({ hasText: signupMessages.emailTaken });
    await alert.waitFor();
    expect(
      await alert.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href'),
    ).toBe('/auth/forgot-password');
    expect(await page.getByRole('button', { name: 'Create account' }).isEnabled()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/auth/signup');
  });

  it('skips the account type for an invited email, which is read-only', async () => {
    const page = await visitor();
    await page.goto(
      `${env.server.url}/auth/signup?email=${encodeURIComponent('invitee@example.com')}`,
    );
    await page.getByRole('heading', { name: 'Details' }).waitFor();
    expect(await typeChoice(page, 'Organization').count()).toBe(0);
    const email = page.getByLabel('Email', { exact: true });
    expect(await email.inputValue()).toBe('invitee@example.com');
    expect(await email.getAttribute('readonly')).not.toBeNull();
    // The customer flow: the guardian choice is offered, the company is not.
    expect(await page.getByRole('checkbox', { name: /parent\/guardian/ }).count()).toBe(1);
    expect(await page.getByLabel('Company name').count()).toBe(0);
  });

  it('skips the account type with preventOrgFields', async () => {
    const page = await visitor();
    await page.goto(`${env.server.url}/auth/signup?preventOrgFields=true`);
    await page.getByRole('heading', { name: 'Details' }).waitFor();
    expect(await typeChoice(page, 'Customer').count()).toBe(0);
    expect(await page.getByLabel('Email', { exact: true }).getAttribute('readonly')).toBeNull();
    // This server has no Google client id: no Google button (auth-google.e2e.ts has one).
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('button', { name: 'Sign up with Google' }).count()).toBe(0);
  });

  it('rotates the testimonials about every 6 s, and not with reduced motion', async () => {
    const page = await visitor();
    await page.clock.install();
    await page.goto(`${env.server.url}/auth/signup`);
    const review = (n: number) => page.getByRole('button', { name: `Review ${n} of 3` });
    await review(1).waitFor();
    expect(await review(1).getAttribute('aria-pressed')).toBe('true');
    await page.clock.runFor(6_100);
    await expect.poll(() => review(2).getAttribute('aria-pressed')).toBe('true');

    const still = await visitor();
    await still.emulateMedia({ reducedMotion: 'reduce' });
    await still.clock.install();
    await still.goto(`${env.server.url}/auth/signup`);
    const quote = still.getByRole('blockquote');
    const before = await quote.textContent();
    await still.clock.runFor(20_000);
    expect(await quote.textContent()).toBe(before);
    // The reviews stay reachable by hand.
    await still.getByRole('button', { name: 'Review 3 of 3' }).click();
    expect(await quote.textContent()).not.toBe(before);
  });

  it('uses the customer flow without testimonials in a branded app (orgId) and links to log in with it', async () => {
    const page = await visitor();
    const orgId = env.server.seed.zipperOrgId;
    await page.goto(`${env.server.url}/auth/signup?orgId=${orgId}`);
    await page.getByRole('heading', { name: 'Details' }).waitFor();
    expect(await testimonials(page).count()).toBe(0);
    expect(await typeChoice(page, 'Customer').count()).toBe(0);
    const login = page.getByRole('link', { name: 'Already have an account? Log in' });
    expect(await login.getAttribute('href')).toBe(`/auth/login?orgId=${orgId}`);
  });
});
