import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  loginMessages,
  passwordResetMessages,
  signupMessages,
} from '@platform/schema/auth/auth.messages';
import type { MailboxEntry } from '@platform/schema/dev-tools/mailbox.zod';
import { demoLogins, logIn, useServerAndBrowser } from '../../scripts/e2e/harness.ts';

const NEW_PASSWORD = 'brand-new-pass-42';

describe('resetting a forgotten password', () => {
  // The reset link is read from the development mailbox, which exists only when turned on.
  const env = useServerAndBrowser({ DEV_TOOLS: '1' });

  async function visitor(): Promise<Page> {
    return (await env.browser.newContext()).newPage();
  }
  const pathOf = (page: Page) => new URL(page.url()).pathname;

  /** Asks for a link on the page, as a person would, and reads it from the development mailbox. */
  async function requestResetLink(page: Page, email: string): Promise<string> {
    await page.goto(`${env.server.url}/auth/login`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    // The forgot-password page loads its own chunk: until it shows, 'Email' is the login form's.
    await page.getByRole('button', { name: 'Send reset link' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('status').getByText(passwordResetMessages.sent, { exact: true }).waitFor();
    // The email is written by a background job after the answer: look until it is there.
    let link: string | undefined;
    await expect
      .poll(
        async () => {
          const mailbox = (await (
            await page.request.get(`${env.server.url}/api/dev/mailbox`)
          ).json()) as MailboxEntry[];
          const mail = mailbox.find((entry) => entry.to === email);
          link = mail?.text.match(/https?:\/\/\S+\/auth\/reset-password\?token=\S+/)?.[0];
          return link;
        },
        { timeout: 15_000 },
      )
      .toBeDefined();
    return link!;
  }

  it('emails a link that sets a new password, which then logs in', async () => {
    const page = await visitor();
    const link = await requestResetLink(page, demoLogins.staff.email);
    expect(link.startsWith(`${env.server.url}/auth/reset-password?token=`)).toBe(true);
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set new password' }).click();
    const done = page.getByRole('status').filter({ hasText: passwordResetMessages.done });
    await done.waitFor();
    await done.getByRole('link', { name: 'Log in' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/login');
    await logIn(page, env.server.url, demoLogins.staff.email, NEW_PASSWORD);
    expect(pathOf(page)).toBe('/dashboard');

    // The link works once.
    const again = await visitor();
    await again.goto(link);
    await again.getByLabel('New password', { exact: true }).fill('another-pass-99');
    await again.getByLabel('Confirm password').fill('another-pass-99');
    await again.getByRole('button', { name: 'Set new password' }).click();
    await again.getByRole('alert').getByText(passwordResetMessages.invalidToken).waitFor();
  });

  it('checks the new password before sending it', async () => {
    const page = await visitor();
    await page.goto(`${env.server.url}/auth/reset-password?token=${'x'.repeat(32)}`);
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('Confirm password').fill('different');
    expect(await page.getByText(signupMessages.passwordTooShort, { exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText(signupMessages.passwordTooShort, { exact: true }).waitFor();
    await page.getByText(signupMessages.passwordsDoNotMatch, { exact: true }).waitFor();
    // A well-formed but unknown token is refused by the env.server.
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('alert').getByText(passwordResetMessages.invalidToken).waitFor();
  });

  it('says a link without a token is invalid, and checks the email asked for', async () => {
    const page = await visitor();
    await page.goto(`${env.server.url}/auth/reset-password`);
    await page.getByRole('alert').getByText(passwordResetMessages.invalidToken).waitFor();
    await page.getByRole('link', { name: 'Request a new link' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/forgot-password');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText(signupMessages.invalidEmail, { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Back to log in' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/login');
    expect(await page.getByText(loginMessages.failureTitle).count()).toBe(0);
  });
});
