import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { ageText } from '@platform/schema/families/date-of-birth.rules';
import { childMessages } from '@platform/schema/auth/auth.messages';
import { familyMessages, guardianMessages } from '@platform/schema/families/families.messages';
import {
  demoLogins,
  launchPersistent,
  logIn,
  useServerAndBrowser,
} from '../../scripts/e2e/harness.ts';

/**
 * spec §2 the family modals and the customer settings page, §5 Guardian add and Child rules,
 * §8 create children / empty states / the disconnect question, §9 the reload after creation,
 * §6 switching into a child and back. The tests share one server and build on each other.
 */
/** Today on the browser's clock, as the page counts ages. */
const localDay = () => {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
};

describe('families on the settings page', () => {
  const env = useServerAndBrowser();
  const settingsUrl = () =>
    `${env.server.url}/dashboard-customer/${env.server.seed.zipperOrgId}/settings`;
  const suffix = Date.now().toString(36);

  async function parentOnSettings(context?: BrowserContext): Promise<Page> {
    const page = await (context ?? (await env.browser.newContext())).newPage();
    await logIn(page, env.server.url, demoLogins.parent.email);
    await page.goto(settingsUrl());
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    return page;
  }
  const family = (page: Page) => page.getByRole('list', { name: 'Your family' });

  it('adds three children in one submission (one with an address, awaiting them), reloads, disconnects one, switches into another', async () => {
    const page = await parentOnSettings();
    await family(page).getByText('Pat Parent').waitFor();
    await family(page).getByText('Casey Parent').waitFor();

    await page.getByRole('button', { name: 'Manage child accounts' }).click();
    const dialog = page.getByRole('dialog', { name: 'Manage child accounts' });
    await dialog.getByRole('listitem').filter({ hasText: 'Casey Parent' }).waitFor();
    // One row to start with, and no Remove while it is the only one (spec §5).
    expect(await dialog.getByRole('button', { name: /^Remove/ }).count()).toBe(0);

    const create = dialog.getByRole('button', { name: 'Create child accounts' });
    await create.click();
    await dialog.getByText(childMessages.firstNameRequired, { exact: true }).waitFor();
    await dialog.getByText(childMessages.lastNameRequired, { exact: true }).waitFor();

    await dialog.getByLabel('First name of child 1').fill('Jamie');
    await dialog.getByLabel('Last name of child 1').fill('Parent');
    await dialog.getByLabel('Email (optional) of child 1').fill('not-an-email');
    await dialog.getByLabel('Email (optional) of child 1').blur();
    await dialog.getByText(childMessages.invalidEmail, { exact: true }).waitFor();
    await dialog.getByLabel('Email (optional) of child 1').fill('');
    // Issue 14: an optional date of birth, never in the future.
    const birthday = dialog.getByLabel('Date of birth (optional) of child 1');
    await birthday.fill('2999-01-01');
    await birthday.blur();
    await dialog.getByText(familyMessages.dateOfBirthInFuture, { exact: true }).waitFor();
    await birthday.fill('2017-05-04');
    await dialog.getByRole('button', { name: 'Add another child' }).click();
    await dialog.getByRole('button', { name: 'Remove child 2' }).waitFor();
    await dialog.getByLabel('First name of child 2').fill('Riley');
    await dialog.getByLabel('Last name of child 2').fill('Parent');
    // A child with an address owns their account: Pat acts for Sky only once Sky confirms.
    await dialog.getByText(familyMessages.childEmailHint).first().waitFor();
    await dialog.getByRole('button', { name: 'Add another child' }).click();
    await dialog.getByLabel('First name of child 3').fill('Sky');
    await dialog.getByLabel('Last name of child 3').fill('Parent');
    await dialog.getByLabel('Email (optional) of child 3').fill(`sky-${suffix}@example.test`);

    // Issue 14: a toast confirms it and the new rows show in the dialog — no reload.
    let reloaded = false;
    page.on('load', () => (reloaded = true));
    await create.click();
    await page
      .getByRole('status', { name: 'Notifications' })
      .getByText('3 child accounts were created.')
      .waitFor();
    const jamieRow = dialog.getByRole('listitem').filter({ hasText: 'Jamie Parent' });
    await jamieRow.getByText(ageText('2017-05-04', localDay())).waitFor();
    await dialog.getByRole('listitem').filter({ hasText: 'Riley Parent' }).waitFor();
    await dialog.getByRole('button', { name: 'Created!' }).waitFor();
    expect(await dialog.getByLabel('First name of child 1').inputValue()).toBe('');
    // The page behind has them too, once the dialog is closed.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await family(page).getByText('Jamie Parent').waitFor();
    await family(page).getByText('Riley Parent').waitFor();
    await family(page).getByText('Casey Parent').waitFor();
    expect(reloaded).toBe(false);

    await page.getByRole('button', { name: 'Manage child accounts' }).click();

    await dialog
      .getByRole('listitem')
      .filter({ hasText: 'Sky Parent' })
      .getByText(familyMessages.awaitingConfirmation)
      .waitFor();
    const jamie = dialog.getByRole('listitem').filter({ hasText: 'Jamie Parent' });
    await jamie.getByRole('button', { name: 'Disconnect Jamie Parent' }).click();
    const question = jamie.getByRole('group', { name: familyMessages.disconnectConfirm });
    await question.waitFor();
    // The question takes focus on its safe answer; Cancel gives focus back.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('Cancel');
    await page.keyboard.press('Enter');
    await question.waitFor({ state: 'detached' });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('Disconnect Jamie Parent');

    await page.keyboard.press('Enter');
    await question.getByRole('button', { name: 'Yes, disconnect Jamie Parent' }).click();
    await jamie.waitFor({ state: 'detached' });
    await dialog.getByText('Child account disconnected.').waitFor();
    await dialog.getByRole('listitem').filter({ hasText: 'Riley Parent' }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await family(page).getByText('Jamie Parent').waitFor({ state: 'detached' });
    await family(page).getByText('Riley Parent').waitFor();

    const account = page.getByRole('region', { name: 'Account' });
    await account.getByRole('button', { name: 'Switch accounts' }).click();
    const switcher = page.getByRole('dialog', { name: 'Switch accounts' });
    expect(await switcher.getByRole('button', { name: 'Switch to Jamie Parent' }).count()).toBe(0);
    expect(await switcher.getByRole('button', { name: 'Switch to Sky Parent' }).count()).toBe(0);
    await switcher.getByRole('button', { name: 'Switch to Riley Parent' }).click();
    await account.getByText('Riley Parent', { exact: true }).waitFor();

    await account.getByRole('button', { name: 'Switch accounts' }).click();
    await switcher.getByRole('button', { name: /^Return to parent account/ }).click();
    await account.getByText('Pat Parent', { exact: true }).waitFor();
    await page.context().close();
  });

  it('shows the family offline once the settings page has been open online', async () => {
    const profile = await launchPersistent();
    try {
      const page = await parentOnSettings(profile.context);
      // STACK-NOTES: only a page the service worker controls is served from its cache, and
      // /api/me is kept for offline use only when it went through the worker: reload once.
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, {
        timeout: 10_000,
      });
      await page.reload();
      await family(page).getByText('Riley Parent').waitFor();
      await page.getByRole('status').filter({ hasText: 'Synced' }).waitFor({ timeout: 15_000 });

      await profile.context.setOffline(true);
      await page.reload();
      await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
      await page.getByText('You are offline. Changing your settings needs a connection.').waitFor();
      await family(page).getByText('Pat Parent').waitFor();
      await family(page).getByText('Casey Parent').waitFor();
      await family(page).getByText('Riley Parent').waitFor();
      // The profile as the last /api/me had it.
      await page
        .getByRole('region', { name: 'Profile' })
        .getByText(demoLogins.parent.email)
        .waitFor();
      // The customer dashboard too, still offline.
      await page.goto(`${env.server.url}/dashboard-customer/${env.server.seed.zipperOrgId}`);
      await page.getByRole('heading', { name: 'Child accounts' }).waitFor();
      await page.getByText(/Casey Parent/).waitFor();
      await profile.context.setOffline(false);
    } finally {
      await profile.close();
    }
  });

  it('adds a parent/guardian after the spec §5 messages, and removes them again', async () => {
    const page = await parentOnSettings();
    await page.getByRole('button', { name: 'Manage parent/guardian accounts' }).click();
    const dialog = page.getByRole('dialog', { name: 'Manage parent/guardian accounts' });
    await dialog.getByText(guardianMessages.noGuardians, { exact: true }).waitFor();

    const add = dialog.getByRole('button', { name: 'Add parent/guardian' });
    await add.click();
    await dialog.getByText(guardianMessages.invalidEmail, { exact: true }).waitFor();
    // spec §5: a missing last name reuses the first-name message.
    await expect
      .poll(() => dialog.getByText(guardianMessages.firstNameRequired, { exact: true }).count())
      .toBe(2);

    await dialog.getByLabel('Email', { exact: true }).fill('gran-at-example');
    await dialog.getByLabel('First name', { exact: true }).fill('Gran');
    await add.click();
    await dialog.getByText(guardianMessages.invalidEmail, { exact: true }).waitFor();
    await expect
      .poll(() => dialog.getByText(guardianMessages.firstNameRequired, { exact: true }).count())
      .toBe(1);

    await dialog.getByLabel('Email', { exact: true }).fill(`gran-${suffix}@example.test`);
    await dialog.getByLabel('Last name', { exact: true }).fill('Parent');
    await dialog.getByRole('switch', { name: 'Send an email to set their password' }).uncheck();
    await add.click();
    const gran = dialog.getByRole('listitem').filter({ hasText: 'Gran Parent' });
    await gran.waitFor();
    await dialog.getByText('Parent/guardian added.').waitFor();
    expect(await dialog.getByLabel('Email', { exact: true }).inputValue()).toBe('');

    await gran.getByRole('button', { name: 'Remove Gran Parent' }).click();
    await gran.waitFor({ state: 'detached' });
    await dialog.getByText(guardianMessages.noGuardians, { exact: true }).waitFor();
    await page.context().close();
  });

  it('opens Switch accounts from the home page’s "Use Switch accounts" (issue 14)', async () => {
    const page = await (await env.browser.newContext()).newPage();
    await logIn(page, env.server.url, demoLogins.parent.email);
    await page.goto(`${env.server.url}/dashboard`);
    const hint = page.getByText(/^You manage .*to act for them\.$/);
    const open = hint.getByRole('button', { name: 'Switch accounts' });
    await open.click();
    const switcher = page.getByRole('dialog', { name: 'Switch accounts' });
    await switcher.getByRole('button', { name: /^Switch to Casey Parent/ }).waitFor();
    await page.keyboard.press('Escape');
    await switcher.waitFor({ state: 'detached' });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('Switch accounts');
    await page.context().close();
  });
});
