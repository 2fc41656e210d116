import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { sandboxCharges, subscriptions } from '@platform/schema/db';
import { demoLogins, logIn, useServerAndBrowser } from '../../scripts/e2e/harness.ts';
import { axeViolations } from '../../scripts/e2e/axe.ts';

/**
 * Issue 15, the charge flow (spec §2 'Charge product or subscription', §4, §8): the owner
 * charges the demo parent from the customer profile with the sandbox's test cards — the
 * succeeding card starts the membership, the declined card stays on the order summary with
 * the spec's error, and a double-clicked Run charge charges once.
 */
describe('charging a customer', () => {
  const env = useServerAndBrowser();

  const openCharge = async (page: Page) => {
    await page.goto(`${env.server.url}/dashboard/crm`);
    await page
      .getByRole('table', { name: 'Customers' })
      .getByRole('link', { name: 'Pat Parent' })
      .click();
    await page.getByRole('heading', { name: 'Pat Parent', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Charge', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Charge product or subscription' });
    await dialog.getByLabel('Product').waitFor();
    return dialog;
  };

  const chooseProduct = async (dialog: ReturnType<Page['getByRole']>, name: string) => {
    const select = dialog.getByLabel('Product');
    const value = await select.locator('option', { hasText: name }).getAttribute('value');
    await select.selectOption(value ?? '');
  };

  const addCard = async (dialog: ReturnType<Page['getByRole']>, number: string) => {
    if (await dialog.getByRole('button', { name: 'Add a card' }).isVisible()) {
      await dialog.getByRole('button', { name: 'Add a card' }).click();
    }
    await dialog.getByLabel('Card number').fill(number);
    await dialog.getByLabel('Expiry (MM/YY)').fill('12/34');
    await dialog.getByLabel('Security code').fill('123');
    await dialog.getByRole('button', { name: 'Save card' }).click();
    // The card saved is the one chosen (the customer may already keep another like it: the
    // list of cards on file can arrive after the form opened).
    await dialog
      .getByRole('radio', { name: new RegExp(`•••• ${number.slice(-4)}`), checked: true })
      .waitFor();
  };

  const chargesOf = async (amountMinor: number) =>
    env.server.db
      .select()
      .from(sandboxCharges)
      .where(
        and(
          eq(sandboxCharges.orgId, env.server.seed.zipperOrgId),
          eq(sandboxCharges.amountMinor, amountMinor),
        ),
      );

  it('starts a membership with the succeeding test card', async () => {
    const page = await (await env.browser.newContext({ locale: 'en-US' })).newPage();
    await logIn(page, env.server.url, demoLogins.owner.email);
    const dialog = await openCharge(page);
    const next = dialog.getByRole('button', { name: 'Continue' });
    expect(await next.isDisabled()).toBe(true);
    await chooseProduct(dialog, 'Unlimited membership');
    // No card on file yet: the sandbox's card form, labelled as such.
    await dialog.getByText(/^Sandbox:/).waitFor();
    expect(await next.isDisabled()).toBe(true);
    await dialog.getByLabel('Card number').fill('4111 1111 1111 1112');
    await dialog.getByLabel('Expiry (MM/YY)').fill('12/34');
    await dialog.getByLabel('Security code').fill('123');
    await dialog.getByRole('button', { name: 'Save card' }).click();
    await dialog
      .getByRole('alert')
      .getByText(/use a test card/)
      .waitFor();
    await addCard(dialog, '4242 4242 4242 4242');
    expect(await axeViolations(page)).toEqual([]);
    await next.click();

    // Order summary: $129.00 a month and the $25.00 start-up fee.
    await dialog.getByRole('heading', { name: 'Order summary' }).waitFor();
    const lines = dialog.getByRole('table', { name: 'Order summary' });
    expect(await lines.getByRole('row').allInnerTexts()).toEqual([
      expect.stringMatching(/^Item\s+Amount$/),
      expect.stringMatching(/^Start-up fee\s+\$25\.00$/),
      expect.stringMatching(/^Unlimited membership\s+\$129\.00$/),
    ]);
    expect(await dialog.locator('.charge-totals').innerText()).toMatch(
      /Total charged now\s+\$154\.00/,
    );
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Run charge' }).click();
    await page
      .getByRole('status', { name: 'Notifications' })
      .getByText('Subscription created successfully!')
      .waitFor();
    await dialog.getByText('$154.00 charged to Visa •••• 4242.', { exact: false }).waitFor();
    expect(await chargesOf(15_400)).toHaveLength(1);
    const started = await env.server.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.customerUserId, env.server.seed.userIds.parent));
    expect(started).toEqual([expect.objectContaining({ status: 'active', priceMinor: 12_900 })]);
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await dialog.waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('stays on the order summary with the error when the card is declined', async () => {
    const page = await (await env.browser.newContext({ locale: 'en-US' })).newPage();
    await logIn(page, env.server.url, demoLogins.owner.email);
    const dialog = await openCharge(page);
    await chooseProduct(dialog, '10-class pack');
    await addCard(dialog, '4000 0000 0000 0002');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByRole('button', { name: 'Run charge' }).click();
    await dialog
      .getByRole('alert')
      .getByText('There was an error processing payment. Your card was declined.')
      .waitFor();
    await dialog.getByRole('heading', { name: 'Order summary' }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Run charge' }).isEnabled()).toBe(true);
    // Back keeps the answers; another card can be chosen.
    await dialog.getByRole('button', { name: 'Back' }).click();
    await dialog.getByRole('button', { name: 'Continue' }).waitFor();
    await page.context().close();
  });

  it('charges once when Run charge is double-clicked', async () => {
    const page = await (await env.browser.newContext({ locale: 'en-US' })).newPage();
    await logIn(page, env.server.url, demoLogins.owner.email);
    const dialog = await openCharge(page);
    await chooseProduct(dialog, 'Personal training session');
    await addCard(dialog, '5555 5555 5555 4444');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    const run = dialog.getByRole('button', { name: 'Run charge' });
    await run.dblclick();
    await page
      .getByRole('status', { name: 'Notifications' })
      .getByText('Payment processed successfully!')
      .waitFor();
    expect(await chargesOf(7_500)).toHaveLength(1);
    await page.context().close();
  });

  it('sells at the point of sale and lists today’s sales with their total', async () => {
    const page = await (await env.browser.newContext({ locale: 'en-US' })).newPage();
    await logIn(page, env.server.url, demoLogins.owner.email);
    await page.goto(`${env.server.url}/dashboard`);
    await page.getByRole('navigation').getByRole('link', { name: 'Point of Sale' }).click();
    await page.getByRole('heading', { name: 'Point of Sale', level: 1 }).waitFor();
    const sales = page.getByRole('region', { name: 'Today’s sales' });
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: /Select a customer/ }).click();
    const picker = page.getByRole('dialog', { name: 'Select a customer' });
    await picker.getByLabel('Search customers').fill('Pat');
    await picker
      .getByRole('list', { name: 'Customers' })
      .getByRole('button', { name: /Pat Parent/ })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Charge product or subscription' });
    await dialog.getByLabel('Product').waitFor();
    await chooseProduct(dialog, '10-class pack');
    await dialog.getByRole('switch', { name: 'Issue punch card credits' }).check();
    await addCard(dialog, '4242 4242 4242 4242');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByRole('button', { name: 'Run charge' }).click();
    await page
      .getByRole('status', { name: 'Notifications' })
      .getByText('Payment processed successfully!')
      .waitFor();
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await dialog.waitFor({ state: 'detached' });

    // The sale is on today's list, and the list's total counts it.
    const table = sales.getByRole('table', { name: 'Today’s sales' });
    const row = table
      .getByRole('row')
      .filter({ hasText: '10-class pack' })
      .filter({ hasText: 'Pat Parent' });
    await row.last().waitFor();
    expect(await row.last().innerText()).toContain('$150.00');
    const paid = await env.server.db
      .select()
      .from(sandboxCharges)
      .where(eq(sandboxCharges.orgId, env.server.seed.zipperOrgId));
    const total = paid
      .filter((c) => c.outcome === 'succeeded')
      .reduce((sum, c) => sum + c.amountMinor, 0);
    const money = `$${(total / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
    await table.getByRole('row', { name: new RegExp(`Total today\\s+\\${money}`) }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // The punch card's credits reach Pat's profile by replication (decision 0062).
    await page.goto(`${env.server.url}/dashboard/crm`);
    await page
      .getByRole('table', { name: 'Customers' })
      .getByRole('link', { name: 'Pat Parent' })
      .click();
    const credits = page.getByRole('region', { name: 'Credits' });
    await credits.getByRole('listitem').filter({ hasText: 'Classes' }).waitFor({ timeout: 60_000 });
    expect(await credits.innerText()).toContain('10 of 10 credits left');
    expect(await axeViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('does not offer the point of sale to staff who do not sell', async () => {
    const page = await (await env.browser.newContext()).newPage();
    await logIn(page, env.server.url, demoLogins.staff.email);
    await page.goto(`${env.server.url}/dashboard`);
    await page.getByRole('navigation').getByRole('link', { name: 'Time Tracking' }).waitFor();
    expect(await page.getByRole('link', { name: 'Point of Sale' }).count()).toBe(0);
    expect((await page.request.get(`${env.server.url}/api/charges/today`)).status()).toBe(403);
    await page.context().close();
  });
});
