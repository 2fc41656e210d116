import { describe, expect, it } from 'vitest';
import { contactListMessages } from '@platform/schema/crm/contact-lists.zod';
import { axeViolations } from '../../scripts/e2e/axe.ts';
import { demoLogins, logIn, useServerAndBrowser } from '../../scripts/e2e/harness.ts';

/**
 * Issue 17, contact lists as the owner manages them on a phone: a list made, a name taken in
 * another case refused, the list renamed, a customer put on it from their profile, seen on the
 * list's members and taken off, and the list deleted after a confirmation.
 */
describe('contact lists', () => {
  const env = useServerAndBrowser();
  const suffix = Date.now().toString(36);

  it('creates, renames, adds a customer from the profile, removes them and deletes the list', async () => {
    const context = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await logIn(page, env.server.url, demoLogins.owner.email);
    await page.goto(`${env.server.url}/dashboard/crm`);
    await page.getByRole('link', { name: 'Contact lists' }).click();
    await page.getByRole('heading', { name: 'Contact lists', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'No contact lists yet' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // Created; a name the organisation has, in another case, is refused with its message.
    const nameField = page.getByLabel('New list name');
    await nameField.fill(`Newsletter ${suffix}`);
    await page.getByRole('button', { name: 'Create list' }).click();
    const lists = page.getByRole('list', { name: 'Contact lists' });
    await lists.getByText(`Newsletter ${suffix}`).waitFor();
    await lists.getByText('0 members').waitFor();
    await nameField.fill(`NEWSLETTER ${suffix}`);
    await page.getByRole('button', { name: 'Create list' }).click();
    await page.getByText(contactListMessages.nameTaken(`NEWSLETTER ${suffix}`)).waitFor();
    await nameField.fill('  ');
    await page.getByRole('button', { name: 'Create list' }).click();
    await page.getByText(contactListMessages.nameRequired).waitFor();

    // Renamed in the dialog.
    const listName = `Morning crew ${suffix}`;
    await page.getByRole('button', { name: `Rename Newsletter ${suffix}` }).click();
    const rename = page.getByRole('dialog', { name: `Rename Newsletter ${suffix}` });
    await rename.getByLabel('List name').fill(listName);
    await rename.getByRole('button', { name: 'Save name' }).click();
    await rename.waitFor({ state: 'detached' });
    await lists.getByText(listName).waitFor();
    expect(await lists.getByText(`Newsletter ${suffix}`).count()).toBe(0);

    // Pat goes on the list from her profile.
    await page.goto(`${env.server.url}/dashboard/crm`);
    await page.getByRole('searchbox', { name: 'Search customers' }).fill('pat');
    await page
      .getByRole('table', { name: 'Customers' })
      .getByRole('link', { name: 'Pat Parent' })
      .click();
    await page.getByRole('heading', { name: 'Pat Parent', level: 1 }).waitFor();
    const section = page.getByRole('region', { name: 'Contact lists' });
    await section.getByText('Not on any contact list.').waitFor();
    await section.getByLabel('Add to list').selectOption({ label: listName });
    await section.getByRole('button', { name: 'Add to list' }).click();
    const onLists = section.getByRole('list', { name: 'Contact lists of this customer' });
    await onLists.getByText(listName).waitFor();
    await section.getByRole('button', { name: `Remove from ${listName}` }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // On the list's members, named as the roster names her; taken off there.
    await page.goto(`${env.server.url}/dashboard/crm/lists`);
    await lists.getByText('1 member').waitFor();
    await page.getByRole('button', { name: `Members of ${listName}` }).click();
    const members = page.getByRole('list', { name: `Members of ${listName}` });
    await members.getByRole('link', { name: 'Pat Parent' }).waitFor();
    await members.getByText(demoLogins.parent.email).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/contact-lists-390.png', fullPage: true });
    await page.getByRole('button', { name: `Remove Pat Parent from ${listName}` }).click();
    await page
      .getByText('No members yet. Add customers to this list from their profile.')
      .waitFor();
    await lists.getByText('0 members').waitFor();

    // Deleted after a confirmation: Cancel keeps it, Delete list removes it.
    await page.getByRole('button', { name: `Delete ${listName}` }).click();
    const confirm = page.getByRole('dialog', { name: `Delete ${listName}?` });
    await confirm.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await lists.getByText(listName).waitFor();
    await page.getByRole('button', { name: `Delete ${listName}` }).click();
    expect(await axeViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Delete list' }).click();
    await page.getByRole('heading', { name: 'No contact lists yet' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  }, 180_000);
});
