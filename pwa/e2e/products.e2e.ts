import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { coupons, products } from '@platform/schema/db';
import { productMessages } from '@platform/schema/payments/products.zod';
import { demoLogins, logIn, useServerAndBrowser } from '../../scripts/e2e/harness.ts';

/**
 * Issue 15, products and coupons (spec §3, §9): the owner creates a monthly membership with a
 * start-up fee and a class pack with a punch card, gets the spec's reason for a bad price,
 * changes a price, archives a product, and adds a coupon with the new-discount defaults. The
 * sandbox is labelled as such; staff without manage-products are not offered the page.
 */
describe('products and coupons', () => {
  const env = useServerAndBrowser();

  it('lets the owner create, change and archive products, and create a coupon', async () => {
    const page = await (await env.browser.newContext({ locale: 'en-US' })).newPage();
    await logIn(page, env.server.url, demoLogins.owner.email);
    await page.goto(`${env.server.url}/dashboard`);
    await page.getByRole('navigation').getByRole('link', { name: 'Products' }).click();
    await page.getByRole('heading', { name: 'Products', level: 1 }).waitFor();
    await page
      .getByRole('note')
      .getByText(/^Sandbox:/)
      .waitFor();
    // The demo already sells a membership (seeded at the sandbox).
    await page.getByRole('row', { name: /^Unlimited membership/ }).waitFor();

    // A membership: every month, $49.00, a $20.00 start-up fee.
    await page.getByRole('button', { name: 'New product' }).click();
    let dialog = page.getByRole('dialog', { name: 'New product' });
    await dialog.getByLabel('Name').fill('Unlimited classes');
    await dialog.getByLabel('Price (USD)').fill('49.0.0');
    await dialog.getByRole('button', { name: 'Save product' }).click();
    await dialog.getByText(productMessages.priceInvalid).waitFor();
    await dialog.getByLabel('Price (USD)').fill('49');
    await dialog.getByText('Shown as $49.00').waitFor();
    await dialog.getByLabel('Start-up fee (USD, optional)').fill('20.00');
    await dialog.getByRole('button', { name: 'Save product' }).click();
    await page
      .getByRole('status', { name: 'Notifications' })
      .getByText('The product has been saved.')
      .waitFor();
    await dialog.waitFor({ state: 'detached' });
    const row = (name: string) => page.getByRole('row', { name: new RegExp(`^${name}`) });
    expect(await row('Unlimited classes').getByRole('cell').allTextContents()).toEqual([
      'Every month',
      '$49.00',
      '$20.00',
      'Available',
      'EditArchive',
    ]);

    // A class pack: one-time, with a punch card of 10 credits.
    await page.getByRole('button', { name: 'New product' }).click();
    dialog = page.getByRole('dialog', { name: 'New product' });
    await dialog.getByLabel('Name').fill('Ten-class pack');
    await dialog.getByRole('radio', { name: 'One-time purchase' }).check();
    await dialog.getByLabel('Price (USD)').fill('120');
    await dialog.getByRole('button', { name: 'Add a punch card' }).click();
    await dialog.getByLabel('Punch card 1 name').fill('Classes');
    await dialog.getByRole('button', { name: 'Save product' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row('Ten-class pack').getByText('Once').waitFor();
    const [pack] = await env.server.db
      .select()
      .from(products)
      .where(
        and(eq(products.orgId, env.server.seed.zipperOrgId), eq(products.name, 'Ten-class pack')),
      );
    expect(pack).toMatchObject({ type: 'one-time', schedule: 'one-time', priceMinor: 12_000 });
    expect(pack?.punchCardConfiguration.groups).toEqual([
      expect.objectContaining({ name: 'Classes', credits: 10 }),
    ]);
    expect(pack?.processorProductId).toMatch(/^prod_sandbox_/);

    // A new price for the membership.
    await page.getByRole('button', { name: 'Edit Unlimited classes' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit Unlimited classes' });
    await dialog.getByLabel('Price (USD)').fill('55.50');
    await dialog.getByRole('button', { name: 'Save product' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row('Unlimited classes').getByText('$55.50').waitFor();

    // A coupon: the defaults of spec §9 (10 %, one redemption, forever).
    await page.getByRole('button', { name: 'New coupon' }).click();
    dialog = page.getByRole('dialog', { name: 'New coupon' });
    expect(await dialog.getByLabel('Percent off').inputValue()).toBe('10');
    expect(await dialog.getByLabel('Number of redemptions').inputValue()).toBe('1');
    expect(await dialog.getByLabel('Duration').inputValue()).toBe('forever');
    await dialog.getByLabel('Name').fill('Welcome');
    await dialog.getByRole('checkbox', { name: 'Unlimited classes' }).check();
    await dialog.getByRole('button', { name: 'Create coupon' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page
      .getByRole('listitem')
      .filter({ hasText: 'Welcome · 10% off · Forever · 0 of 1 used' })
      .waitFor();
    const [welcome] = await env.server.db
      .select()
      .from(coupons)
      .where(and(eq(coupons.orgId, env.server.seed.zipperOrgId), eq(coupons.name, 'Welcome')));
    expect(welcome).toMatchObject({ type: 'percentage', amount: 10, numberOfRedemptions: 1 });

    // Archived: no longer on offer.
    await page.getByRole('button', { name: 'Archive Ten-class pack' }).click();
    await row('Ten-class pack').waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('offers the page only to staff who may manage products', async () => {
    const page = await (await env.browser.newContext()).newPage();
    await logIn(page, env.server.url, demoLogins.staff.email);
    await page.goto(`${env.server.url}/dashboard`);
    await page.getByRole('navigation').getByRole('link', { name: 'Time Tracking' }).waitFor();
    expect(await page.getByRole('link', { name: 'Products' }).count()).toBe(0);
    const answer = await page.request.get(`${env.server.url}/api/catalogue`);
    expect(answer.status()).toBe(403);
    await page.context().close();
  });
});
