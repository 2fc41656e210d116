import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  demoLogins,
  launchPersistent,
  logIn,
  useServerAndBrowser,
} from '../../scripts/e2e/harness.ts';

const CUSTOMERS = 10_000;
/** The one customer the front desk looks for, somewhere in the middle of the list. */
const NEEDLE = { n: 6421, firstName: 'Marisol', lastName: 'Vandermeer' };

/**
 * Issue 7: search finds a customer among 10,000 seeded ones — on the server, typos included,
 * and on the device with the network off once the roster has replicated to it.
 */
describe('CRM with 10,000 customers', () => {
  const env = useServerAndBrowser();

  beforeAll(async () => {
    const { db, seed } = env.server;
    await db.execute(sql`
      with people as (
        insert into users (email, first_name, last_name)
        select 'member' || g || '@large-roster.test',
               case when g = ${NEEDLE.n} then ${NEEDLE.firstName}
                    else (array['Alex','Sam','Jo','Kim','Lee','Max','Ria','Tom'])[1 + g % 8] end,
               case when g = ${NEEDLE.n} then ${NEEDLE.lastName} else 'Member' || g end
        from generate_series(1, ${CUSTOMERS}) g
        returning id, email, first_name, last_name
      )
      insert into roster_items (org_id, user_id, first_name, last_name, email, phone, updated_at)
      select ${seed.zipperOrgId}, id, first_name, last_name, email,
             '+1 555 ' || lpad(substring(email from '[0-9]+'), 7, '0'), now()
      from people`);
    await db.execute(sql`analyze roster_items`);
  }, 120_000);

  const roster = (page: Page) => page.getByRole('table', { name: 'Customers' });
  const search = (page: Page) => page.getByRole('searchbox', { name: 'Search customers' });
  const needleName = `${NEEDLE.firstName} ${NEEDLE.lastName}`;

  it('finds one customer among them, by a prefix and with a typo', async () => {
    const page = await (await env.browser.newContext()).newPage();
    await logIn(page, env.server.url, demoLogins.owner.email);
    await page.goto(`${env.server.url}/dashboard/crm`);
    await roster(page).getByRole('row').nth(5).waitFor();
    await search(page).fill('vanderm');
    await roster(page).getByRole('link', { name: needleName }).waitFor();
    expect(await roster(page).getByRole('link').count()).toBe(1);
    await search(page).fill('vandermer');
    await roster(page).getByRole('link', { name: needleName }).waitFor();
    await page.context().close();
  });

  it('finds them on the device with the network off', async () => {
    const profile = await launchPersistent();
    try {
      const page = profile.context.pages()[0] ?? (await profile.context.newPage());
      await logIn(page, env.server.url, demoLogins.owner.email);
      await page.goto(`${env.server.url}/dashboard/crm`);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, {
        timeout: 30_000,
      });
      await page.reload();
      await roster(page).getByRole('row').nth(5).waitFor();
      // The whole roster reaches the device before the indicator says so.
      const started = Date.now();
      await page.getByRole('status').filter({ hasText: 'Synced' }).waitFor({ timeout: 90_000 });
      console.log(`10,000-customer roster on the device in ${Date.now() - started} ms`);

      await profile.context.setOffline(true);
      await search(page).fill('marisol van');
      await page
        .getByText('You are offline: searching the customers saved on this device.')
        .waitFor();
      await roster(page).getByRole('link', { name: needleName }).waitFor();
      await search(page).fill('member9999');
      await roster(page)
        .getByRole('link', { name: /Member9999$/ })
        .waitFor();
      await profile.context.setOffline(false);
    } finally {
      await profile.close();
    }
    // Alone on this machine the roster arrives in about 10 s; beside the other end-to-end
    // files on two cores CI measured 41 s, so the test allows what its own wait for 'Synced'
    // allows, plus sign-in and the search.
  }, 150_000);
});
