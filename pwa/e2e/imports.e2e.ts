import { readFileSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { contactLists, rosterItems, subscriptions, users } from '@platform/schema/db';
import { csvMessages } from '@platform/schema/imports/csv';
import { importMessages } from '@platform/schema/imports/import-rules';
import { addDays, dayKeyOf } from '@platform/schema/time-tracking/org-calendar';
import { insertTestUser } from '../../sync-server/src/testing/auth-fixtures.ts';
import { offerProduct, saveTestCard } from '../../sync-server/src/testing/payment-fixtures.ts';
import { insertRosterItem } from '../../sync-server/src/testing/sync-fixtures.ts';
import { axeViolations } from '../../scripts/e2e/axe.ts';
import { demoLogins, logIn, useServerAndBrowser } from '../../scripts/e2e/harness.ts';

/**
 * Issue 17, the customers import as the owner does it on a phone: a file with three bad rows,
 * every one listed with its row number before anything is sent, fixed in the text area, then
 * imported with a progress bar to the end, and the people on the customer list.
 */
describe('CSV import', () => {
  const env = useServerAndBrowser();
  const suffix = Date.now().toString(36);
  const email = (name: string) => `${name}-${suffix}@example.test`;

  it('lists a file’s bad rows, takes the fixed rows, shows the import to its end and the customers on the list', async () => {
    const context = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await logIn(page, env.server.url, demoLogins.owner.email);
    await page.goto(`${env.server.url}/dashboard/crm`);
    await page.getByRole('link', { name: 'Import from CSV' }).click();
    await page.getByRole('heading', { name: 'Import from a spreadsheet', level: 1 }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // Only .csv files.
    const fileInput = page.locator('input[type=file]');
    await fileInput.setInputFiles({
      name: 'members.xlsx',
      mimeType: 'application/vnd.ms-excel',
      buffer: Buffer.from('x'),
    });
    await page.getByRole('alert').filter({ hasText: csvMessages.notCsv }).waitFor();

    const rows = [
      'firstName,lastName,email,phoneNumber',
      `Ada,Import${suffix},${email('ada')},(201) 555-0101`,
      `,Import${suffix},${email('nofirst')}`,
      `"Grace, Jr.",Import${suffix},${email('grace')}`,
      `Linus,Import${suffix},not-an-email`,
      `Ada,Again${suffix},${email('ada').toUpperCase()}`,
    ];
    await fileInput.setInputFiles({
      name: 'members.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`\uFEFF${rows.join('\r\n')}\r\n`),
    });
    await page.getByText('Loaded from members.csv.').waitFor();
    await page.getByRole('button', { name: 'Preview' }).click();

    const errors = page.getByRole('alert').filter({ hasText: importMessages.errorsHeading });
    await errors.waitFor();
    const errorRows = errors.getByRole('table', { name: 'Rows with errors' }).locator('tbody tr');
    expect(await errorRows.allInnerTexts()).toEqual([
      expect.stringMatching(/^3\s+First name is required\s+, Import/),
      expect.stringMatching(/^5\s+Email not-an-email is not a valid email address\s+Linus/),
      expect.stringMatching(new RegExp(`^6\\s+Email ${email('ada')} is already on row 2`)),
    ]);
    await page.getByText('5 rows read, 3 with errors. Fix them to import.').waitFor();
    expect(await page.getByRole('button', { name: 'Import 5 rows' }).isDisabled()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/import-errors-390.png', fullPage: true });

    // Fixed in the text area, previewed again, imported.
    await page.getByRole('button', { name: 'Edit rows' }).click();
    const text = page.getByLabel('Rows (CSV)');
    expect(await text.inputValue()).toContain(`Linus,Import${suffix},not-an-email`);
    await text.fill(
      [
        rows[0],
        rows[1],
        `Nora,Import${suffix},${email('nora')}`,
        rows[3],
        `Linus,Import${suffix},${email('linus')}`,
      ].join('\n'),
    );
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByText('4 rows read, ready to import.').waitFor();
    await page.getByRole('button', { name: 'Import 4 rows' }).click();

    await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 30_000 });
    const bar = page.getByRole('progressbar', { name: 'Import progress' });
    expect(await bar.getAttribute('value')).toBe('1');
    expect(await bar.getAttribute('max')).toBe('1');
    await page
      .getByText('4 rows imported from members.csv: 4 new customers added, 0 invited')
      .waitFor();
    await page
      .getByRole('region', { name: 'Recent imports' })
      .getByText(/members\.csv · .* · Imported · 4 rows/)
      .waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/import-done-390.png', fullPage: true });

    // The import is kept: a reload lists it.
    await page.reload();
    await page
      .getByRole('region', { name: 'Recent imports' })
      .getByText(/members\.csv · .* · Imported · 4 rows/)
      .waitFor();

    const listed = await env.server.db
      .select({ firstName: rosterItems.firstName })
      .from(rosterItems)
      .where(
        and(
          eq(rosterItems.orgId, env.server.seed.zipperOrgId),
          eq(rosterItems.lastName, `Import${suffix}`),
        ),
      );
    expect(listed.map((r) => r.firstName).sort()).toEqual(['Ada', 'Grace, Jr.', 'Linus', 'Nora']);

    // On the customer list (replicated to this device).
    await page.goto(`${env.server.url}/dashboard/crm`);
    await page.getByRole('searchbox', { name: 'Search customers' }).fill(`Import${suffix}`);
    const table = page.getByRole('table', { name: 'Customers' });
    await table.getByText('Grace, Jr.', { exact: false }).waitFor();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(4);

    // Punch-card credits for them: the products are the catalogue on this device.
    await page.goto(`${env.server.url}/dashboard/crm/import`);
    await page.getByLabel('What are you importing?').selectOption({ label: 'Punch-card credits' });
    await page
      .getByLabel('Rows (CSV)')
      .fill(`${email('ada')},10-class pack,5\n${email('nora')},Personal training session,2`);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: importMessages.errorsHeading })
      .getByText('Product Personal training session has no punch card')
      .waitFor();
    await page.getByRole('button', { name: 'Edit rows' }).click();
    await page
      .getByLabel('Rows (CSV)')
      .fill(`${email('ada')},10-class pack,5\n${email('nora')},10-CLASS PACK,2`);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('button', { name: 'Import 2 rows' }).click();
    await page.getByText('2 customers given credits, 0 already had').waitFor({ timeout: 30_000 });
    expect(await axeViolations(page)).toEqual([]);

    // Onto a contact list (server state: the preview reads the organisation's lists).
    await env.server.db
      .insert(contactLists)
      .values({ orgId: env.server.seed.zipperOrgId, name: `Crew ${suffix}` });
    await page.getByRole('button', { name: 'Import another file' }).click();
    await page
      .getByLabel('What are you importing?')
      .selectOption({ label: 'Contact list members' });
    await page
      .getByLabel('Rows (CSV)')
      .fill(`${email('ada')},crew ${suffix}\n${email('nora')},No such list`);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: importMessages.errorsHeading })
      .getByText(importMessages.listNotFound)
      .waitFor();
    await page.getByRole('button', { name: 'Edit rows' }).click();
    await page
      .getByLabel('Rows (CSV)')
      .fill(`${email('ada')},crew ${suffix}\n${email('nora')},Crew ${suffix}`);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('button', { name: 'Import 2 rows' }).click();
    await page.getByText('2 added to their lists, 0 already on').waitFor({ timeout: 30_000 });

    // Memberships they pay for outside the platform: an invitation that leaves nothing to pay is
    // refused in the preview; the fixed rows are recorded at the agreed price, nothing
    // charged.
    await page.getByRole('button', { name: 'Import another file' }).click();
    await page.getByLabel('What are you importing?').selectOption({ label: 'Product assignments' });
    const external = 'start-customer-subscription-for-external-payment';
    await page
      .getByLabel('Rows (CSV)')
      .fill(
        `${email('ada')},Unlimited membership,create-customer-subscription-invite,,,percentage,100\n${email('nora')},Unlimited membership,${external},2026-01-15,,percentage,10`,
      );
    await page.getByRole('button', { name: 'Preview' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: importMessages.errorsHeading })
      .getByText(importMessages.inviteFree)
      .waitFor();
    await page.getByRole('button', { name: 'Edit rows' }).click();
    await page
      .getByLabel('Rows (CSV)')
      .fill(
        `${email('ada')},Unlimited membership,${external},,,,\n${email('nora')},Unlimited membership,${external},2026-01-15,,percentage,10`,
      );
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('button', { name: 'Import 2 rows' }).click();
    await page
      .getByText('2 subscriptions paid outside the platform recorded')
      .waitFor({ timeout: 30_000 });
    expect(await axeViolations(page)).toEqual([]);
    const recorded = await env.server.db
      .select({ priceMinor: subscriptions.priceMinor, external: subscriptions.externalPayments })
      .from(subscriptions)
      .innerJoin(users, eq(users.id, subscriptions.customerUserId))
      .where(eq(users.email, email('nora')));
    expect(recorded).toEqual([{ priceMinor: 11_610, external: true }]);
    await context.close();
  }, 180_000);

  it('a membership imported as paid outside shows on the parent’s phone as paid outside, with its end', async () => {
    const owner = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
    const desk = await owner.newPage();
    await logIn(desk, env.server.url, demoLogins.owner.email);
    await desk.goto(`${env.server.url}/dashboard/crm/import`);
    await desk.getByLabel('What are you importing?').selectOption({ label: 'Product assignments' });
    await desk
      .getByLabel('Rows (CSV)')
      .fill(
        `${demoLogins.parent.email},Unlimited membership,start-customer-subscription-for-external-payment,2026-02-01,2036-01-31,fixed_amount,29`,
      );
    await desk.getByRole('button', { name: 'Preview' }).click();
    await desk.getByRole('button', { name: 'Import 1 row' }).click();
    await desk
      .getByText('1 subscription paid outside the platform recorded')
      .waitFor({ timeout: 30_000 });
    await owner.close();

    const parent = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await parent.newPage();
    await logIn(page, env.server.url, demoLogins.parent.email);
    await page.goto(
      `${env.server.url}/dashboard-customer/${env.server.seed.zipperOrgId}/purchase-history`,
    );
    const item = page
      .getByRole('region', { name: 'Subscriptions' })
      .getByRole('listitem')
      .filter({ hasText: 'Unlimited membership' });
    await item.getByText(/outside the app: nothing is charged here/).waitFor({ timeout: 60_000 });
    await item.getByText('$100.00 · Active').waitFor();
    await item.getByText(/^Next payment due on /).waitFor();
    await item.getByText(/^Ends on .*2036/).waitFor();
    await page.screenshot({ path: '/tmp/purchase-history-external.png', fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    await parent.close();
  }, 180_000);

  it('a card subscription imported for a parent with a card on file starts on its date, nothing charged now; a customer without a card is a refused row', async () => {
    const { server } = env;
    const zipper = server.seed.zipperOrgId;
    const coaching = await offerProduct(
      server.db,
      { orgId: zipper, userId: server.seed.userIds.owner },
      `Coaching ${suffix}`,
    );
    await saveTestCard(server.db, { orgId: zipper, userId: server.seed.userIds.parent });
    const cardless = await insertTestUser(server.db, { email: email('cardless') });
    await insertRosterItem(server.db, zipper, cardless);
    const start = addDays(dayKeyOf(Date.now(), 'UTC'), 10);
    const owner = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
    const desk = await owner.newPage();
    await logIn(desk, server.url, demoLogins.owner.email);
    await desk.goto(`${server.url}/dashboard/crm/import`);
    await desk.getByLabel('What are you importing?').selectOption({ label: 'Product assignments' });
    // The customer list is read from the phone's replica: both customers on it first.
    await desk.getByRole('status').filter({ hasText: 'Synced' }).waitFor({ timeout: 90_000 });
    const row = (email: string) => `${email},${coaching.name},start-stripe-subscription,${start}`;
    await desk
      .getByLabel('Rows (CSV)')
      .fill(`${row(demoLogins.parent.email)}\n${row(email('cardless'))}`);
    await desk.getByRole('button', { name: 'Preview' }).click();
    await desk.getByRole('button', { name: 'Import 2 rows' }).click();
    // The server's check: cards are not on the owner's phone, so the refusal comes after upload.
    await desk
      .getByText(`Customer ${email('cardless')} has no card on file`)
      .waitFor({ timeout: 30_000 });
    await desk.screenshot({ path: '/tmp/import-card-start-refused.png', fullPage: true });
    expect(await axeViolations(desk)).toEqual([]);
    await desk.getByRole('button', { name: 'Import another file' }).click();
    await desk.getByLabel('What are you importing?').selectOption({ label: 'Product assignments' });
    await desk.getByLabel('Rows (CSV)').fill(row(demoLogins.parent.email));
    await desk.getByRole('button', { name: 'Preview' }).click();
    await desk.getByRole('button', { name: 'Import 1 row' }).click();
    await desk
      .getByText(
        /1 card subscription to charge the card on file from its start date.*Nothing was charged/,
      )
      .waitFor({ timeout: 30_000 });
    await desk.screenshot({ path: '/tmp/import-card-start-done.png', fullPage: true });
    await owner.close();

    const parent = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await parent.newPage();
    await logIn(page, server.url, demoLogins.parent.email);
    await page.goto(`${server.url}/dashboard-customer/${zipper}/purchase-history`);
    const item = page
      .getByRole('region', { name: 'Subscriptions' })
      .getByRole('listitem')
      .filter({ hasText: coaching.name });
    await item.getByText(/Starts soon/).waitFor({ timeout: 60_000 });
    await item.getByText(/^Next charge on /).waitFor();
    await item.getByText('Renews with Visa •••• 4242').waitFor();
    await page.screenshot({ path: '/tmp/purchase-history-card-start.png', fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    await parent.close();
  }, 180_000);

  it('pages a long file by 50 with page numbers, and says when there is nothing to preview', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await logIn(page, env.server.url, demoLogins.owner.email);
    await page.goto(`${env.server.url}/dashboard/crm/import`);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByText(csvMessages.empty).waitFor();
    await page.getByRole('button', { name: 'Edit rows' }).click();

    const many = Array.from(
      { length: 260 },
      (_, i) => `P${i},Many${suffix},p${i}-${suffix}@example.test`,
    );
    await page.getByLabel('Rows (CSV)').fill(many.join('\n'));
    // The text area shows at most 50 rows.
    expect(await page.getByLabel('Rows (CSV)').getAttribute('rows')).toBe('50');
    await page.getByRole('button', { name: 'Preview' }).click();
    const region = page.getByRole('region', { name: 'Rows to import' });
    await region.waitFor();
    expect(await region.locator('tbody tr').count()).toBe(50);
    const box = await region.boundingBox();
    expect(box!.height).toBeLessThanOrEqual(400);
    const pager = page.getByRole('navigation', { name: 'Preview pages' });
    await pager.getByRole('button', { name: 'Page 6' }).click();
    expect(await region.locator('tbody tr').count()).toBe(10);
    expect(await region.locator('tbody tr').first().locator('th').innerText()).toBe('251');
    expect(await pager.getByRole('button', { name: 'Page 6' }).getAttribute('aria-current')).toBe(
      'page',
    );
    await context.close();
  }, 120_000);

  it('the owner exports everything as one zip; a parent downloads their own data', async () => {
    const context = await env.browser.newContext({
      viewport: { width: 390, height: 844 },
      acceptDownloads: true,
    });
    const page = await context.newPage();
    await logIn(page, env.server.url, demoLogins.owner.email);
    await page.goto(`${env.server.url}/dashboard/organization-management`);
    const section = page.getByRole('region', { name: 'Export all data' });
    await section.getByRole('button', { name: 'Export all data' }).click();
    const download = section.getByRole('link', { name: /^Download \(\d+\.\d MB\)$/ });
    await download.waitFor({ timeout: 60_000 });
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/export-390.png', fullPage: true });
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    const zip = unzipSync(new Uint8Array(readFileSync((await file.path())!)));
    expect(Object.keys(zip)).toEqual(expect.arrayContaining(['customers.csv', 'everything.json']));
    expect(strFromU8(zip['customers.csv']!).split('\r\n')[0]).toBe(
      'firstName,lastName,email,phoneNumber',
    );
    await context.close();

    const parentContext = await env.browser.newContext({ acceptDownloads: true });
    const parent = await parentContext.newPage();
    await logIn(parent, env.server.url, demoLogins.parent.email);
    await parent.goto(
      `${env.server.url}/dashboard-customer/${env.server.seed.zipperOrgId}/settings`,
    );
    const mine = parent.getByRole('link', { name: 'Download my data' });
    const [data] = await Promise.all([parent.waitForEvent('download'), mine.click()]);
    const json = JSON.parse(readFileSync((await data.path())!, 'utf8')) as {
      profile: { email: string };
      family: Array<{ firstName: string }>;
    };
    expect(json.profile.email).toBe(demoLogins.parent.email);
    expect(json.family.map((m) => m.firstName)).toContain('Casey');
    await parentContext.close();
  }, 180_000);
});
