import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  startStripeWireServer,
  type StripeWireServer,
} from '../../sync-server/src/testing/stripe-wire-server.ts';
import {
  demoLogins,
  launchBrowser,
  logIn,
  startE2eServer,
  type E2eServer,
} from '../../scripts/e2e/harness.ts';
import { axeViolations } from '../../scripts/e2e/axe.ts';

/** Stripe.js as far as the card-entry page uses it (no network here; nothing reaches Stripe). */
const fakeStripeJs = readFileSync(new URL('./fixtures/fake-stripe.js', import.meta.url), 'utf8');

/**
 * Decision 0063 in the browser: with Stripe, the Shop's checkout frames the card-entry page,
 * which loads Stripe.js (a stand-in) under its own policy, shows Stripe's error in itself, and
 * hands the checkout a PaymentMethod that the server charges at Stripe (a local server speaking
 * its wire format) — the card number never reaches our server.
 */
describe('a card entered with Stripe Elements', () => {
  let wire: StripeWireServer;
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    wire = await startStripeWireServer();
    [server, browser] = await Promise.all([
      startE2eServer({
        PAYMENT_PROCESSOR: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_e2e',
        STRIPE_WEBHOOK_SECRET: 'whsec_e2e',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_e2e',
        STRIPE_API_BASE: wire.apiBase,
      }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await wire?.close();
  });

  it('buys in the Shop through the card-entry frame and sees the purchase', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const reachedStripe: string[] = [];
    // Anything else of Stripe's is refused (and noted); Stripe.js itself is the stand-in.
    await context.route(/^https:\/\/([a-z0-9-]+\.)*stripe\.com\//, (route) => {
      reachedStripe.push(route.request().url());
      return route.abort();
    });
    await context.route('https://js.stripe.com/**', (route) =>
      route.fulfill({ contentType: 'application/javascript', body: fakeStripeJs }),
    );
    const violations: string[] = [];
    context.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
    });
    const page = await context.newPage();
    const zipper = server.seed.zipperOrgId;
    await logIn(page, server.url, demoLogins.parent.email);
    await page.goto(`${server.url}/dashboard-customer/${zipper}/shop`);
    await page.getByRole('button', { name: 'Buy 10-class pack' }).click();
    const dialog = page.getByRole('dialog', { name: 'Buy 10-class pack' });
    await dialog.getByText('Total today').waitFor();
    // No sandbox boxes and no sandbox note: the frame is the card form.
    expect(await dialog.getByText(/^Sandbox:/).count()).toBe(0);
    expect(await dialog.getByLabel('Expiry (MM/YY)').count()).toBe(0);
    const frame = dialog.frameLocator('iframe[title="Card details"]');
    const number = frame.getByRole('textbox', { name: 'Card number' });
    await number.waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // Stripe's own message shows inside the frame; nothing is charged.
    await number.fill('4000 0000 0000 0002');
    await frame.getByRole('button', { name: 'Pay with this card' }).click();
    await frame.getByRole('alert').getByText('Your card number is incorrect.').waitFor();
    expect(wire.requests.filter((r) => r.path === '/v1/payment_intents')).toEqual([]);

    // Keyboard only: the number, then Enter submits the frame's form.
    await number.fill('4242 4242 4242 4242');
    await number.press('Enter');
    await page
      .getByRole('status', { name: 'Notifications' })
      .getByText('Payment processed successfully!')
      .waitFor();
    const intents = wire.requests.filter((r) => r.path === '/v1/payment_intents');
    expect(intents).toHaveLength(1);
    expect(intents[0]?.params).toMatchObject({ amount: '15000', confirm: 'true' });
    expect(JSON.stringify(wire.requests)).not.toContain('4242424242424242');

    await dialog.getByRole('link', { name: 'purchase history' }).click();
    await page
      .getByRole('region', { name: 'Receipts' })
      .getByRole('heading', { name: '10-class pack — $150.00' })
      .waitFor({ timeout: 60_000 });
    expect(reachedStripe).toEqual([]);
    expect(violations).toEqual([]);
    await context.close();
  }, 180_000);
});
