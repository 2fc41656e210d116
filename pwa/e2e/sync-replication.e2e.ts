import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { demoLogins, logIn, useServerAndBrowser } from '../../scripts/e2e/harness.ts';

/** Issue 4 in the real browser: RxDB on Dexie (IndexedDB), replication, leader election. */
describe('replication in Chromium', () => {
  const env = useServerAndBrowser();
  const indicator = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text });
  const localDatabases = (page: Page) =>
    page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name ?? '').filter((n) => n.includes('account_')));

  it('shows the sync state: synced online, offline without a network, synced again after', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await logIn(page, env.server.url, demoLogins.owner.email);
    await indicator(page, 'Synced').waitFor({ timeout: 15_000 });
    expect((await localDatabases(page)).length).toBeGreaterThan(0);

    await context.setOffline(true);
    await indicator(page, 'Offline').first().waitFor();
    await context.setOffline(false);
    await indicator(page, 'Synced').waitFor({ timeout: 15_000 });
    await context.close();
  });

  it('replicates once for several tabs of one account (the other tab stands by)', async () => {
    const context = await env.browser.newContext();
    const first = await context.newPage();
    await logIn(first, env.server.url, demoLogins.owner.email);
    await indicator(first, 'Synced').waitFor({ timeout: 15_000 });

    const second = await context.newPage();
    const secondSyncRequests: string[] = [];
    second.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/sync/')) secondSyncRequests.push(request.url());
    });
    await second.goto(`${env.server.url}/dashboard`);
    await indicator(second, 'Syncing in another tab').waitFor({ timeout: 15_000 });
    await second.waitForTimeout(1500);
    expect(secondSyncRequests).toEqual([]);
    await context.close();
  });

  it('removes the account’s local data from the device on sign-out', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await logIn(page, env.server.url, demoLogins.staff.email);
    await indicator(page, 'Synced').waitFor({ timeout: 15_000 });
    expect((await localDatabases(page)).length).toBeGreaterThan(0);

    await page.getByRole('button', { name: /^User menu:/ }).click();
    await page.getByRole('link', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/login');
    expect(await localDatabases(page)).toEqual([]);
    await context.close();
  });
});
