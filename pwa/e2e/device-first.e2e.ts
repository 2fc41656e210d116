import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  demoLogins,
  launchBrowser,
  launchPersistent,
  logIn,
  startE2eServer,
  type E2eServer,
} from '../../scripts/e2e/harness.ts';

/**
 * Issue 13: the replica is the one source on the device. After one visit each, every screen
 * that shows replicated data opens again with the server stopped — not a cut network the
 * browser might route around, a server that is gone — and shows its data from the device.
 */
describe('every screen from the device, with the server stopped', () => {
  let server: E2eServer;
  let owner: Awaited<ReturnType<typeof launchPersistent>>;
  let parent: Awaited<ReturnType<typeof launchPersistent>>;
  let serverStopped = false;

  beforeAll(async () => {
    // A browser that is not used: the harness's launch checks Chromium is there.
    await (await launchBrowser()).close();
    [server, owner, parent] = await Promise.all([
      startE2eServer(),
      launchPersistent(),
      launchPersistent(),
    ]);
  });
  afterAll(async () => {
    await owner?.close();
    await parent?.close();
    if (!serverStopped) await server?.close();
  });

  /** The signed-in person's own clock (a manager's page also lists the team's). */
  const ownClock = (page: Page) => page.getByRole('region', { name: 'Current status' });

  /** One visit: the page's data on screen, the service worker in charge, replication settled. */
  async function visit(page: Page, path: string, shown: (page: Page) => Promise<void>) {
    await page.goto(`${server.url}${path}`);
    await shown(page);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, {
      timeout: 15_000,
    });
    await page.getByRole('status').filter({ hasText: 'Synced' }).waitFor({ timeout: 20_000 });
    return page;
  }

  it('opens the owner’s and the parent’s screens again from the device', async () => {
    const zipper = server.seed.zipperOrgId;
    // One tab per profile: a second tab would stand by while the first replicates.
    const ownerPage = owner.context.pages()[0] ?? (await owner.context.newPage());
    await logIn(ownerPage, server.url, demoLogins.owner.email);
    await visit(ownerPage, '/dashboard/time-tracking', async (page) => {
      await page.getByRole('button', { name: 'Clock In', exact: true }).click();
      await ownClock(page)
        .getByText(/^Clocked in since \d{1,2}:\d\d\s[AP]M$/)
        .waitFor();
    });
    const profilePath = await (async () => {
      const page = await visit(ownerPage, '/dashboard/crm', async (p) => {
        await p.getByRole('searchbox', { name: 'Search customers' }).fill('pat');
        await p
          .getByRole('table', { name: 'Customers' })
          .getByRole('link', { name: 'Pat Parent' })
          .click();
        await p.getByRole('heading', { name: 'Pat Parent', level: 1 }).waitFor();
      });
      return new URL(page.url()).pathname;
    })();

    const parentPage = parent.context.pages()[0] ?? (await parent.context.newPage());
    await logIn(parentPage, server.url, demoLogins.parent.email);
    await visit(parentPage, '/dashboard/settings', (p) =>
      p.getByRole('list', { name: 'Your family' }).getByText('Casey Parent').waitFor(),
    );
    await visit(parentPage, `/dashboard-customer/${zipper}`, (p) =>
      p.getByText('Casey Parent').first().waitFor(),
    );

    await server.close();
    serverStopped = true;

    const again = async (page: Page, path: string, shown: (page: Page) => Promise<void>) => {
      await page.goto(`${server.url}${path}`);
      await shown(page);
    };
    await again(ownerPage, '/dashboard/time-tracking', async (page) => {
      await ownClock(page)
        .getByText(/^Clocked in since \d{1,2}:\d\d\s[AP]M$/)
        .waitFor();
      // The owner manages time tracking: the team's list has them on the clock too.
      await page
        .getByRole('region', { name: 'On the clock now' })
        .getByText(demoLogins.owner.name)
        .waitFor();
      await page
        .getByRole('region', { name: 'Account' })
        .getByText(demoLogins.owner.name)
        .waitFor();
    });
    await again(ownerPage, profilePath, async (page) => {
      await page.getByRole('heading', { name: 'Pat Parent', level: 1 }).waitFor();
      await page.getByText(demoLogins.parent.email).first().waitFor();
    });
    await again(ownerPage, '/dashboard/crm', async (page) => {
      await page.getByRole('searchbox', { name: 'Search customers' }).fill('casey');
      await page
        .getByRole('table', { name: 'Customers' })
        .getByRole('link', { name: 'Casey Parent' })
        .waitFor();
    });
    await again(parentPage, '/dashboard/settings', (page) =>
      page.getByRole('list', { name: 'Your family' }).getByText('Casey Parent').waitFor(),
    );
    await again(parentPage, `/dashboard-customer/${zipper}`, async (page) => {
      await page.getByText('Casey Parent').first().waitFor();
      // The organisation's branding, from its replicated document.
      await page.getByText('Zipper Fitness').first().waitFor();
    });
  });
});
