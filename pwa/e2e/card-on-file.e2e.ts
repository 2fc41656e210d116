import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { products } from '@platform/schema/db';
import { sellWithTestCard } from '../../sync-server/src/testing/payment-fixtures.ts';
import { demoLogins, logIn, useServerAndBrowser } from '../../scripts/e2e/harness.ts';
import { axeViolations } from '../../scripts/e2e/axe.ts';

/**
 * Issue 15: the demo parent's membership (sold at the desk with the sandbox's test Visa) shows
 * its card on file in Purchase history; a declined card is refused with the processor's words,
 * a test Mastercard replaces it and arrives by replication. The owner's Subscriptions overview
 * (/dashboard/org-subscription) lists the subscription and says the sandbox takes the cards.
 */
describe('the card on file and the subscriptions overview', () => {
  const env = useServerAndBrowser();

  const notice = (page: Page, text: string) =>
    page.getByRole('status', { name: 'Notifications' }).getByText(text).waitFor();

  it('replaces the card in Purchase history, and the owner sees the subscription', async () => {
    const { server, browser } = env;
    const zipper = server.seed.zipperOrgId;
    const [membership] = await server.db
      .select()
      .from(products)
      .where(and(eq(products.orgId, zipper), eq(products.name, 'Unlimited membership')));
    await sellWithTestCard(
      server.db,
      { orgId: zipper, userId: server.seed.userIds.owner },
      server.seed.userIds.parent,
      membership!.id,
    );

    const parent = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await parent.newPage();
    await logIn(page, server.url, demoLogins.parent.email);
    await page.goto(`${server.url}/dashboard-customer/${zipper}/purchase-history`);
    const onFile = page.getByRole('region', { name: 'Card on file' });
    // Replicated to the device: beside another Chromium file on two cores it may take a while.
    await onFile.getByRole('heading', { name: 'Visa •••• 4242' }).waitFor({ timeout: 60_000 });
    await onFile.getByText('Expires 12/30').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await onFile.getByRole('button', { name: 'Replace card' }).click();
    const dialog = page.getByRole('dialog', { name: 'Replace card' });
    await dialog.getByRole('note').getByText(/^Sandbox:/).waitFor();
    const enter = async (number: string, expiry: string) => {
      await dialog.getByLabel('Card number').fill(number);
      await dialog.getByLabel('Expiry (MM/YY)').fill(expiry);
      await dialog.getByLabel('Security code').fill('321');
      await dialog.getByRole('button', { name: 'Save card' }).click();
    };
    await enter('4000 0000 0000 0002', '03/41');
    await dialog
      .getByRole('alert')
      .getByText('Your card on file was not changed. Your card was declined.')
      .waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await enter('5555 5555 5555 4444', '03/41');
    await notice(page, 'Mastercard •••• 4444 is now your card on file');
    await onFile.getByRole('heading', { name: 'Mastercard •••• 4444' }).waitFor({ timeout: 90_000 });
    await onFile.getByText('Expires 03/41').waitFor();
    await parent.close();

    const owner = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const desk = await owner.newPage();
    await logIn(desk, server.url, demoLogins.owner.email);
    await desk.getByRole('button', { name: /User menu/ }).click();
    await desk.getByRole('link', { name: 'Subscription & Billing' }).click();
    await desk.getByRole('heading', { name: 'Subscriptions', level: 1 }).waitFor();
    await desk
      .getByRole('region', { name: 'Card payments' })
      .getByText('Sandbox', { exact: true })
      .waitFor();
    const row = desk.getByRole('row', { name: new RegExp(demoLogins.parent.name) });
    await row.getByRole('cell', { name: 'Unlimited membership' }).waitFor();
    await row.getByRole('cell', { name: 'Active' }).waitFor();
    await row.getByRole('cell', { name: '$129.00' }).waitFor();
    expect(await axeViolations(desk)).toEqual([]);
    // The list scrolls sideways on a narrow screen and takes the keyboard's focus to do so.
    await desk.getByRole('region', { name: /^Subscriptions, scrolls sideways/ }).focus();
    await owner.close();
  }, 180_000);
});
