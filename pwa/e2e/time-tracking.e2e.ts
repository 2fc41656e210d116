import { savedOfflineMessage } from '@platform/schema/time-tracking/time-tracking.messages';
import { describe, expect, it } from 'vitest';
import { demoLogins, logIn, useServerAndBrowser } from '../../scripts/e2e/harness.ts';

/** spec §3 Time tracking, §4 its moves, §7 POST /api/time-tracking, §8 its toasts. */
describe('the time-tracking screen', () => {
  const env = useServerAndBrowser();

  it('takes the staff member through clock in, a break and clock out', async () => {
    const page = await (await env.browser.newContext()).newPage();
    await logIn(page, env.server.url, demoLogins.staff.email);
    await page.goto(`${env.server.url}/dashboard/time-tracking`);
    await page.getByRole('heading', { name: 'Time Tracking', level: 1 }).waitFor();
    await page.getByText('Not clocked in').waitFor();
    await page.getByText('No time recorded today.').waitFor();
    const button = (name: string) => page.getByRole('button', { name, exact: true });
    const toast = (text: string) =>
      page.getByRole('status', { name: 'Notifications' }).getByText(text);

    await button('Clock In').click();
    await toast('Successfully clocked in!').waitFor();
    await page.getByText(/^Clocked in since \d\d:\d\d$/).waitFor();
    expect(await button('Clock In').count()).toBe(0);

    await button('Start Break').click();
    await toast('Break started!').waitFor();
    await page.getByText(/^On break since \d\d:\d\d$/).waitFor();

    await button('Return from Break').click();
    await toast('Break ended!').waitFor();
    await page.getByText(/^Clocked in since \d\d:\d\d$/).waitFor();

    await button('Clock Out').click();
    await toast('Successfully clocked out!').waitFor();
    await page.getByText('Clocked out', { exact: true }).waitFor();
    await button('Clock In').waitFor();

    const rows = page.getByRole('region', { name: 'Today' }).getByRole('row');
    await expect.poll(() => rows.count()).toBe(2); // the header and one entry
    const cells = await rows.nth(1).getByRole('cell').allTextContents();
    expect(cells[0]).toMatch(/^\d\d:\d\d$/);
    expect(cells[1]).toMatch(/^\d\d:\d\d$/);
    expect(cells[2]).toMatch(/^\d\d:\d\d–\d\d:\d\d$/);
    expect(cells[3]).toBe('0h 00m');
  });

  it('clocks in offline on the device and syncs the entry once back online', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await logIn(page, env.server.url, demoLogins.staff.email);
    await page.goto(`${env.server.url}/dashboard/time-tracking`);
    // The first test left the staff member clocked out.
    await page.getByText('Clocked out', { exact: true }).waitFor();
    const synced = page.getByRole('status').filter({ hasText: 'Synced' });
    await synced.waitFor({ timeout: 15_000 });

    await context.setOffline(true);
    await page.getByRole('button', { name: 'Clock In', exact: true }).click();
    await page.getByText(savedOfflineMessage).waitFor();
    await page.getByText(/^Clocked in since \d\d:\d\d$/).waitFor();
    await page.getByRole('button', { name: 'Start Break', exact: true }).waitFor();

    await context.setOffline(false);
    await synced.waitFor({ timeout: 15_000 });
    // The server now has the entry made offline: a fresh page asks it, not the device.
    await page.reload();
    await page.getByText(/^Clocked in since \d\d:\d\d$/).waitFor();
    const rows = page.getByRole('region', { name: 'Today' }).getByRole('row');
    await expect.poll(() => rows.count()).toBe(3);
    expect(await rows.nth(2).getByRole('cell').nth(1).textContent()).toBe('Running');
    await context.close();
  });
});
