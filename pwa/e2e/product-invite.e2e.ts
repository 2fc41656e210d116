import { describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { emailOutbox, subscriptions } from '@platform/schema/db';
import {
  DEMO_PASSWORD,
  demoLogins,
  logIn,
  useServerAndBrowser,
} from '../../scripts/e2e/harness.ts';
import { axeViolations } from '../../scripts/e2e/axe.ts';

/**
 * Issue 15, invitations to products (spec §2 Invite-to-product, §4, §5, §8): the owner invites
 * Pat Parent to the membership from the profile with a delayed start; the invitation is listed
 * on the profile and the roster; the emailed link, opened signed out, signs the parent in and
 * back to it; the parent pays with a test card and the subscription is scheduled. A cancelled
 * invitation's link says it is no longer open.
 */
describe('inviting a customer to a product', () => {
  const env = useServerAndBrowser();

  /** Zipper's today (America/New_York) plus `days`, as YYYY-MM-DD. */
  const zipperDay = (days: number) => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(
      new Date(),
    );
    const day = new Date(`${today}T12:00:00Z`);
    day.setUTCDate(day.getUTCDate() + days);
    return day.toISOString().slice(0, 10);
  };
  const shown = (day: string) =>
    new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    });

  const openProfile = async (page: Page) => {
    await page.goto(`${env.server.url}/dashboard/crm`);
    await page
      .getByRole('table', { name: 'Customers' })
      .getByRole('link', { name: 'Pat Parent' })
      .click();
    await page.getByRole('heading', { name: 'Pat Parent', level: 1 }).waitFor();
  };

  const invite = async (page: Page, startDate: string) => {
    await page.getByRole('button', { name: 'Invite customer to product' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite customer to product' });
    const select = dialog.getByLabel('Product', { exact: true });
    await select.waitFor();
    const value = await select
      .locator('option', { hasText: 'Unlimited membership' })
      .getAttribute('value');
    await select.selectOption(value ?? '');
    await dialog.getByText('Includes the start-up fee of $25.00.').waitFor();
    await dialog.getByRole('radio', { name: 'On a specific date' }).check();
    const send = dialog.getByRole('button', { name: 'Send invitation' });
    // Outside the month's 30-day window: the button waits (spec §5).
    await dialog.getByLabel('Start date').fill(zipperDay(31));
    await dialog.getByText('The start date must be within 30 days from today.').waitFor();
    // The message and the button's state come from one validation, drawn a render apart.
    await expect.poll(() => send.isDisabled(), { timeout: 5_000 }).toBe(true);
    await dialog.getByLabel('Start date').fill(startDate);
    await dialog.getByText('No start-up fee with a delayed start.').waitFor();
    expect(await send.isEnabled()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await send.click();
    await dialog.getByRole('status').getByText('Invitation sent to parent@zipper.demo.').waitFor();
    await dialog.getByRole('button', { name: 'Sent!' }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await dialog.waitFor({ state: 'detached' });
  };

  const inviteLink = async (product = 'Unlimited membership') => {
    const [mail] = await env.server.db
      .select()
      .from(emailOutbox)
      .where(
        and(
          eq(emailOutbox.toAddress, demoLogins.parent.email),
          eq(emailOutbox.subject, `Zipper Fitness invites you to ${product}`),
        ),
      )
      .orderBy(desc(emailOutbox.createdAt));
    const link = /https?:\/\/\S+\/dashboard-customer\/\S+\/invites\/\S+/.exec(
      mail?.textBody ?? '',
    )?.[0];
    expect(link).toBeDefined();
    return link ?? '';
  };

  const signInThroughRedirect = async (page: Page, link: string) => {
    await page.goto(link);
    // The branded app's usual way on a new device: its signup, which links to the sign-in;
    // both carry the way back here.
    await page.waitForURL((url) => url.pathname === '/auth/signup');
    expect(new URL(page.url()).searchParams.get('redirectTo')).toBe(new URL(link).pathname);
    await page
      .getByRole('link', { name: /log in/i })
      .first()
      .click();
    await page.waitForURL((url) => url.pathname === '/auth/login');
    expect(new URL(page.url()).searchParams.get('redirectTo')).toBe(new URL(link).pathname);
    await page.getByLabel(/username or email/i).fill(demoLogins.parent.email);
    await page.getByLabel(/^password$/i).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: /^sign in$/i }).click();
    await page.waitForURL((url) => url.pathname === new URL(link).pathname);
    await page.getByRole('heading', { name: 'Your invitation', level: 1 }).waitFor();
  };

  it('sends from the profile, lists it, and the parent pays with a delayed start', async () => {
    const startDate = zipperDay(3);
    const owner = await (await env.browser.newContext({ locale: 'en-US' })).newPage();
    await logIn(owner, env.server.url, demoLogins.owner.email);
    await openProfile(owner);
    await invite(owner, startDate);

    // Listed on the profile and on the roster page.
    const section = owner.getByRole('region', { name: 'Pending invitations' });
    const row = section.getByRole('listitem').filter({ hasText: 'Unlimited membership' });
    await row.waitFor();
    expect(await row.innerText()).toContain('$129.00');
    expect(await row.innerText()).toContain(shown(startDate));
    expect(await axeViolations(owner)).toEqual([]);
    await owner.getByRole('link', { name: '← Customers' }).click();
    const orgList = owner.getByRole('region', { name: 'Pending invitations' });
    const orgRow = orgList.getByRole('listitem').filter({ hasText: 'Unlimited membership' });
    await orgRow.getByRole('link', { name: 'Pat Parent' }).waitFor();

    // The parent opens the emailed link signed out, signs in, and is back on it.
    const parent = await (await env.browser.newContext({ locale: 'en-US' })).newPage();
    await signInThroughRedirect(parent, await inviteLink());
    await parent.getByText('Zipper Fitness invites you to Unlimited membership.').waitFor();
    const lines = parent.getByRole('table', { name: 'First charge' });
    const texts = await lines.getByRole('row').allInnerTexts();
    // A delayed start: nothing now, no start-up fee; $129.00 a month from the start date.
    expect(texts).toEqual([
      expect.stringMatching(/^Item\s+Amount$/),
      expect.stringMatching(
        new RegExp(
          `^Unlimited membership — starts ${shown(startDate)}, first charge then\\s+\\$0\\.00$`,
        ),
      ),
      expect.stringMatching(/^Total now\s+\$0\.00$/),
    ]);
    const summary = await parent.locator('.charge-totals').innerText();
    expect(summary).toMatch(/Price\s+\$129\.00 every month/);
    expect(summary).toContain(`Starts\n${shown(startDate)}`);
    expect(summary).toContain(`Next billing date\n${shown(startDate)}`);
    await parent.getByText(/^Sandbox:/).waitFor();
    expect(await axeViolations(parent)).toEqual([]);
    await parent.setViewportSize({ width: 390, height: 1100 });
    await parent.screenshot({ path: '/tmp/product-invite-accept-390.png', fullPage: true });

    await parent.getByLabel('Card number').fill('4242 4242 4242 4242');
    await parent.getByLabel('Expiry (MM/YY)').fill('12/34');
    await parent.getByLabel('Security code').fill('123');
    await parent.getByRole('button', { name: 'Confirm and save card' }).click();
    await parent.getByRole('status').getByText('Subscription created successfully!').waitFor();
    await parent.getByRole('link', { name: 'See your purchase history' }).waitFor();

    const [subscription] = await env.server.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.customerUserId, env.server.seed.userIds.parent));
    expect(subscription).toMatchObject({
      status: 'scheduled',
      startedOn: startDate,
      priceMinor: 12_900,
    });

    // Gone from the pending list once paid.
    await owner.reload();
    await orgList.getByText('No open invitations.').waitFor();
    await owner.context().close();
    await parent.context().close();
  });

  it('cancels an invitation on the profile; its link then says it is no longer open', async () => {
    const owner = await (await env.browser.newContext({ locale: 'en-US' })).newPage();
    await logIn(owner, env.server.url, demoLogins.owner.email);
    await openProfile(owner);
    const startDate = zipperDay(2);
    await invite(owner, startDate);
    const section = owner.getByRole('region', { name: 'Pending invitations' });
    const row = section.getByRole('listitem').filter({ hasText: shown(startDate) });
    await row
      .getByRole('button', { name: 'Cancel the invitation to Unlimited membership' })
      .click();
    expect(await axeViolations(owner)).toEqual([]);
    await row.getByRole('button', { name: 'Yes, cancel it' }).click();
    await row.waitFor({ state: 'detached' });

    const parent = await (await env.browser.newContext({ locale: 'en-US' })).newPage();
    await logIn(parent, env.server.url, demoLogins.parent.email);
    await parent.goto(await inviteLink());
    await parent
      .getByText(/This invitation is no longer open\. Zipper Fitness cancelled it/)
      .waitFor();
    expect(await parent.getByLabel('Card number').count()).toBe(0);
    // Another account's link: not theirs, and how to sign in as the right one.
    await owner.goto(await inviteLink());
    await owner.getByRole('alert').getByText('This invitation is for another account.').waitFor();
    await owner.getByRole('alert').getByRole('link', { name: 'Sign out' }).waitFor();
    await owner.context().close();
    await parent.context().close();
  });

  it('says a declined card was declined and takes another one', async () => {
    const owner = await (await env.browser.newContext({ locale: 'en-US' })).newPage();
    await logIn(owner, env.server.url, demoLogins.owner.email);
    await openProfile(owner);
    await owner.getByRole('button', { name: 'Invite customer to product' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Invite customer to product' });
    const select = dialog.getByLabel('Product', { exact: true });
    await select.waitFor();
    const value = await select
      .locator('option', { hasText: '10-class pack' })
      .getAttribute('value');
    await select.selectOption(value ?? '');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await dialog.getByRole('status').getByText('Invitation sent to parent@zipper.demo.').waitFor();
    await owner.context().close();

    const parent = await (await env.browser.newContext({ locale: 'en-US' })).newPage();
    await logIn(parent, env.server.url, demoLogins.parent.email);
    await parent.goto(await inviteLink('10-class pack'));
    await parent.getByText('Zipper Fitness invites you to 10-class pack.').waitFor();
    const pay = parent.getByRole('button', { name: 'Pay $150.00' });
    if (await parent.getByRole('radio', { name: 'A new card' }).isVisible()) {
      await parent.getByRole('radio', { name: 'A new card' }).check();
    }
    await parent.getByLabel('Card number').fill('4000 0000 0000 0002');
    await parent.getByLabel('Expiry (MM/YY)').fill('12/34');
    await parent.getByLabel('Security code').fill('123');
    await pay.click();
    await parent
      .getByRole('alert')
      .getByText('There was an error processing payment. Your card was declined. Try another card.')
      .waitFor();
    await parent.getByLabel('Card number').fill('4242 4242 4242 4242');
    await pay.click();
    await parent.getByRole('status').getByText('Payment processed successfully!').waitFor();
    await parent.context().close();
  });
});
