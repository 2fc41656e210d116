import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '@platform/schema/db';
import { signupMessages } from '@platform/schema/auth/auth.messages';
import { settingsMessages } from '@platform/schema/settings/settings.messages';
import {
  DEMO_PASSWORD,
  demoLogins,
  logIn,
  useServerAndBrowser,
} from '../../scripts/e2e/harness.ts';

/** spec §2 /dashboard/settings in the organisation view: profile, password, notifications. */
describe('the settings page in the organisation view', () => {
  const env = useServerAndBrowser();

  it('saves the profile and preferences, and changes the password after checking the current one', async () => {
    const page = await (await env.browser.newContext()).newPage();
    await logIn(page, env.server.url, demoLogins.staff.email);
    await page.goto(`${env.server.url}/dashboard/settings`);
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    for (const name of ['Profile', 'Password', 'Notification preferences'])
      await page.getByRole('region', { name }).waitFor();
    // The family is the customer view's (spec §6).
    expect(await page.getByRole('region', { name: 'Family' }).count()).toBe(0);

    const profile = page.getByRole('region', { name: 'Profile' });
    await profile.getByLabel('First name').fill(' ');
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await profile.getByText(signupMessages.firstNameRequired, { exact: true }).waitFor();
    await profile.getByLabel('First name').fill('Samantha');
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await profile.getByText(settingsMessages.profileSaved).waitFor();
    // The shell's account card reads /api/me, refreshed after the save.
    await page
      .getByRole('region', { name: 'Account' })
      .getByText('Samantha Staff', { exact: true })
      .waitFor();

    const notifications = page.getByRole('region', { name: 'Notification preferences' });
    await notifications.getByRole('switch', { name: 'Payments' }).uncheck();
    await notifications.getByRole('button', { name: 'Save preferences' }).click();
    await notifications.getByText(settingsMessages.preferencesSaved).waitFor();
    await page.reload();
    await notifications.getByRole('switch', { name: 'Bookings' }).waitFor();
    expect(await notifications.getByRole('switch', { name: 'Payments' }).isChecked()).toBe(false);
    expect(await notifications.getByRole('switch', { name: 'Bookings' }).isChecked()).toBe(true);

    const password = page.getByRole('region', { name: 'Password' });
    const change = password.getByRole('button', { name: 'Change password' });
    await password.getByLabel('Current password').fill('not-my-password');
    await password.getByLabel('New password', { exact: true }).fill('short');
    await password.getByLabel('Confirm new password').fill('different');
    await change.click();
    await password.getByText(signupMessages.passwordTooShort, { exact: true }).waitFor();
    await password.getByText(signupMessages.passwordsDoNotMatch, { exact: true }).waitFor();
    await password.getByLabel('New password', { exact: true }).fill('a-new-demo-password');
    await password.getByLabel('Confirm new password').fill('a-new-demo-password');
    await change.click();
    await password.getByText(settingsMessages.currentPasswordWrong, { exact: true }).waitFor();
    await password.getByLabel('Current password').fill(DEMO_PASSWORD);
    await change.click();
    await password.getByText(settingsMessages.passwordChanged).waitFor();
    expect(await password.getByLabel('Current password').inputValue()).toBe('');

    const fresh = await (await env.browser.newContext()).newPage();
    await logIn(fresh, env.server.url, demoLogins.staff.email, 'a-new-demo-password');
    expect(new URL(fresh.url()).pathname).not.toBe('/auth/login');
  });

  it('offers an account without a password the link to set one by email (issue 14)', async () => {
    const page = await (await env.browser.newContext()).newPage();
    await logIn(page, env.server.url, demoLogins.owner.email);
    // As after a Google sign-up: the account has no password of its own.
    await env.server.db
      .update(users)
      .set({ passwordHash: null })
      .where(eq(users.id, env.server.seed.userIds.owner));
    await page.goto(`${env.server.url}/dashboard/settings`);
    const password = page.getByRole('region', { name: 'Password' });
    await password.getByText(settingsMessages.noPasswordYet).waitFor();
    await password.getByRole('link', { name: settingsMessages.setPasswordByEmail }).click();
    await page.waitForURL(/\/auth\/forgot-password\?email=/);
    expect(await page.getByLabel('Email').inputValue()).toBe(demoLogins.owner.email);
  });
});
