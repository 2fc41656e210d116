import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demoLogins, logIn, useServerAndBrowser } from '../../scripts/e2e/harness.ts';

/** The accessible name of whatever has focus: a field's label or a button's text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    if (!active || active === document.body) return null;
    const labelled = (active as HTMLInputElement).labels?.[0]?.textContent;
    return (labelled ?? active.textContent ?? '').trim();
  });

/**
 * WCAG 2.4.3 focus order (issue 14): a dialog opens on its first field and, closed, gives focus
 * back to the control that opened it — by Escape, by its own Cancel, by the Close button.
 */
describe('dialog focus', () => {
  const env = useServerAndBrowser();

  it('Add customer: opens on Email, gives focus back to Add customer', async () => {
    const page = await (await env.browser.newContext()).newPage();
    await logIn(page, env.server.url, demoLogins.owner.email);
    await page.goto(`${env.server.url}/dashboard/crm`);
    const opener = page.getByRole('button', { name: 'Add customer' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Add customer' });
    await dialog.waitFor();
    await expect.poll(() => focused(page)).toBe('Email');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => focused(page)).toBe('Add customer');

    await opener.press('Enter');
    await expect.poll(() => focused(page)).toBe('Email');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => focused(page)).toBe('Add customer');
    await page.context().close();
  });

  it('Add time entry: opens on Start, gives focus back to Add entry after Cancel', async () => {
    const page = await (await env.browser.newContext()).newPage();
    await logIn(page, env.server.url, demoLogins.staff.email);
    await page.goto(`${env.server.url}/dashboard/time-tracking`);
    const week = page.getByRole('region', { name: 'Week', exact: true });
    await week.getByRole('button', { name: 'Add entry' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add time entry' });
    await dialog.waitFor();
    await expect.poll(() => focused(page)).toBe('Start');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => focused(page)).toBe('Add entry');
    await page.context().close();
  });
});
