import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { childMessages, signupMessages } from '@platform/schema/auth/auth.messages';
import { cookieConsentKey } from '@platform/schema/consent/cookie-consent.rules';
import { useServerAndBrowser } from '../../scripts/e2e/harness.ts';

/** Every spec §5 signup message the details step can show (company name has its own step). */
const detailsMessages = [
  signupMessages.invalidEmail,
  signupMessages.passwordTooShort,
  signupMessages.firstNameRequired,
  signupMessages.lastNameRequired,
  signupMessages.termsRequired,
  signupMessages.cookiesRequired,
  signupMessages.cookieConsentAlert,
];

describe('signup messages', () => {
  const env = useServerAndBrowser();

  async function visitor(): Promise<Page> {
    return (await env.browser.newContext()).newPage();
  }
  const text = (scope: Page | Locator, message: string) =>
    scope.getByText(message, { exact: true });
  const shown = async (scope: Page | Locator, message: string) =>
    (await text(scope, message).count()) > 0;
  const createAccount = (page: Page) =>
    page.getByRole('button', { name: 'Create account' }).click();

  it('shows the company name message only when Continue is pressed without one', async () => {
    const page = await visitor();
    await page.goto(`${env.server.url}/auth/signup`);
    await page.getByRole('button', { name: /^Organization/ }).click();
    const company = page.getByLabel('Company name');
    await company.focus();
    await company.blur();
    expect(await shown(page, signupMessages.companyNameRequired)).toBe(false);
    await page.getByRole('button', { name: 'Continue' }).click();
    await text(page, signupMessages.companyNameRequired).waitFor();
    // Once submitted, fixing the field clears the message as the person types.
    await company.fill('Peak Pilates');
    await text(page, signupMessages.companyNameRequired).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Details' }).waitFor();
    for (const message of detailsMessages) expect(await shown(page, message), message).toBe(false);

    await createAccount(page);
    await text(page, signupMessages.termsRequired).waitFor();
    for (const message of detailsMessages) expect(await shown(page, message), message).toBe(true);
    const consentAlert = page
      .getByRole('alert')
      .filter({ hasText: signupMessages.cookieConsentAlert });
    expect(await consentAlert.count()).toBe(1);
    // Both passwords empty: they match, so only the length is wrong.
    expect(await shown(page, signupMessages.passwordsDoNotMatch)).toBe(false);

    await page.getByRole('checkbox', { name: /allow cookies/ }).check();
    await text(page, signupMessages.cookiesRequired).waitFor({ state: 'detached' });
    expect(await consentAlert.count()).toBe(0);
    await page.getByRole('checkbox', { name: /terms of service/ }).check();
    await text(page, signupMessages.termsRequired).waitFor({ state: 'detached' });
  });

  it('checks email, password length and confirmation, and trims on blur', async () => {
    const page = await visitor();
    await page.goto(`${env.server.url}/auth/signup?preventOrgFields=true`);
    await page.getByLabel('Email', { exact: true }).fill('not-an-email');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm password').fill('shorter');
    const firstName = page.getByLabel('First name', { exact: true });
    await firstName.fill('  Ada  ');
    await firstName.blur();
    expect(await firstName.inputValue()).toBe('Ada');
    expect(await shown(page, signupMessages.invalidEmail)).toBe(false);

    await createAccount(page);
    await text(page, signupMessages.invalidEmail).waitFor();
    expect(await shown(page, signupMessages.passwordTooShort)).toBe(true);
    expect(await shown(page, signupMessages.passwordsDoNotMatch)).toBe(true);
    expect(await shown(page, signupMessages.firstNameRequired)).toBe(false);
    expect(await shown(page, signupMessages.lastNameRequired)).toBe(true);

    const email = page.getByLabel('Email', { exact: true });
    await email.fill('  ada@example.com ');
    await email.blur();
    expect(await email.inputValue()).toBe('ada@example.com');
    await text(page, signupMessages.invalidEmail).waitFor({ state: 'detached' });
    await page.getByLabel('Password', { exact: true }).fill('long-enough');
    await text(page, signupMessages.passwordTooShort).waitFor({ state: 'detached' });
    await page.getByLabel('Confirm password').fill('long-enough');
    await text(page, signupMessages.passwordsDoNotMatch).waitFor({ state: 'detached' });
  });

  it('checks every child row', async () => {
    const page = await visitor();
    await page.goto(`${env.server.url}/auth/signup?preventOrgFields=true`);
    await page.getByRole('checkbox', { name: /parent\/guardian/ }).check();
    await page.getByRole('button', { name: 'Add another child' }).click();
    const [first, second] = [
      page.getByRole('group', { name: 'Child 1' }),
      page.getByRole('group', { name: 'Child 2' }),
    ];
    await second.getByLabel(/^First name/).fill('Sky');
    await second.getByLabel(/^Email \(optional\)/).fill('not-an-email');
    expect(await shown(page, childMessages.firstNameRequired)).toBe(false);

    await createAccount(page);
    await text(first, childMessages.firstNameRequired).waitFor();
    expect(await shown(first, childMessages.lastNameRequired)).toBe(true);
    expect(await shown(first, childMessages.invalidEmail)).toBe(false);
    expect(await shown(second, childMessages.firstNameRequired)).toBe(false);
    expect(await shown(second, childMessages.lastNameRequired)).toBe(true);
    expect(await shown(second, childMessages.invalidEmail)).toBe(true);
    // The person's own name keeps its own wording, with the full stop.
    expect(await shown(page, signupMessages.firstNameRequired)).toBe(true);

    await second.getByLabel(/^Email \(optional\)/).fill('');
    await text(second, childMessages.invalidEmail).waitFor({ state: 'detached' });
    // Unticking the guardian box hides the rows and their messages.
    await page.getByRole('checkbox', { name: /parent\/guardian/ }).uncheck();
    expect(await first.count()).toBe(0);
    expect(await shown(page, childMessages.lastNameRequired)).toBe(false);
  });

  it('asks no cookie question when consent was already given', async () => {
    const page = await visitor();
    await page.goto(`${env.server.url}/auth/signup?preventOrgFields=true`);
    const key = cookieConsentKey(new URL(env.server.url).host, new Date());
    await page.evaluate((storageKey) => localStorage.setItem(storageKey, 'accepted'), key);
    await page.reload();
    await page.getByRole('heading', { name: 'Details' }).waitFor();
    expect(await page.getByRole('checkbox', { name: /allow cookies/ }).count()).toBe(0);
    await createAccount(page);
    await text(page, signupMessages.termsRequired).waitFor();
    expect(await shown(page, signupMessages.cookiesRequired)).toBe(false);
    expect(await shown(page, signupMessages.cookieConsentAlert)).toBe(false);
  });
});
