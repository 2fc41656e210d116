import { describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import type { Locator, Page } from 'playwright-core';
import { emailOutbox, timeEntries, users } from '@platform/schema/db';
import { orgFormat } from '@platform/schema/organizations/org-format';
import { kioskMessages } from '@platform/schema/kiosk/kiosk.messages';
import { signupMessages } from '@platform/schema/auth/auth.messages';
import { teamMessages } from '@platform/schema/team/team.messages';
import {
  demoLogins,
  logIn,
  useServerAndBrowser,
  watchForButton,
} from '../../scripts/e2e/harness.ts';

const EMPLOYEE = { email: 'fran.frontdesk@staff.example', first: 'Fran', last: 'Frontdesk' };
const EMPLOYEE_NAME = `${EMPLOYEE.first} ${EMPLOYEE.last}`;
const PASSWORD = 'a-long-password-1';
const PIN = '7351';

/**
 * Issue 14, The team: the owner invites a front-desk employee, who follows the emailed link,
 * creates an account, joins, sets a kiosk PIN in their own settings and clocks in at a kiosk the
 * owner started; the owner sees the PIN set, changes the role, and cannot remove themself.
 */
describe('the team', () => {
  const env = useServerAndBrowser();
  const newPage = async () => (await env.browser.newContext()).newPage();
  const isFocused = (locator: Locator) =>
    locator.evaluate((element) => element === document.activeElement);
  const teamRow = (page: Page, text: string) =>
    page.getByRole('list', { name: 'Members' }).getByRole('listitem').filter({ hasText: text });
  let owner: Page;

  it('tells a sole owner no one else is on the team yet', async () => {
    const page = await newPage();
    await logIn(page, env.server.url, demoLogins.jobber.email);
    await page.goto(`${env.server.url}/dashboard/organization-management`);
    await page.getByRole('heading', { name: 'Team', level: 2 }).waitFor();
    await page.getByText(teamMessages.emptyTeam).waitFor();
    await page.context().close();
  });

  it('invites an employee as Front desk from Organization → Team', async () => {
    // A browser set to German still reads the organisation's dates (New York, English).
    owner = await (await env.browser.newContext({ locale: 'de-DE' })).newPage();
    await logIn(owner, env.server.url, demoLogins.owner.email);
    await owner.goto(`${env.server.url}/dashboard/organization-management`);
    await owner.getByRole('heading', { name: 'Team', level: 2 }).waitFor();
    await teamRow(owner, 'Sam Staff').waitFor();

    const invite = owner.getByRole('button', { name: 'Invite to the team' });
    await invite.click();
    const dialog = owner.getByRole('dialog', { name: 'Invite to the team' });
    const email = dialog.getByLabel('Email', { exact: true });
    await expect.poll(() => isFocused(email)).toBe(true);
    await email.fill(EMPLOYEE.email);
    await dialog.getByRole('radio', { name: 'Front desk' }).check();
    // The role fills in the permissions, each its own checkbox in plain words.
    expect(
      await dialog.getByRole('checkbox', { name: 'See and edit the customer list' }).isChecked(),
    ).toBe(true);
    expect(
      await dialog
        .getByRole('checkbox', { name: 'Invite staff and change what they may do' })
        .isChecked(),
    ).toBe(false);
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await owner.getByText(teamMessages.invitationSent(EMPLOYEE.email)).waitFor();
    await expect.poll(() => isFocused(invite)).toBe(true);
    const waiting = owner.getByRole('list', { name: 'Invitations waiting' }).getByRole('listitem');
    await waiting.filter({ hasText: EMPLOYEE.email }).getByText('Front desk').waitFor();
    const sentOn = orgFormat('America/New_York').dateOf(Date.now());
    await waiting
      .filter({ hasText: EMPLOYEE.email })
      .getByText(`Sent ${sentOn} by ${demoLogins.owner.name}`)
      .waitFor();
  });

  it('lets the employee follow the emailed link, create an account and join', async () => {
    const [mail] = await env.server.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, EMPLOYEE.email))
      .orderBy(desc(emailOutbox.createdAt));
    const link = /https?:\/\/\S+\/join-team\?token=\S+/.exec(mail?.textBody ?? '')?.[0];
    expect(link).toBeDefined();

    const employee = await newPage();
    await employee.goto(link ?? '');
    await employee.getByRole('heading', { name: 'Join the team of Zipper Fitness' }).waitFor();
    await employee.getByText('Front desk', { exact: true }).waitFor();
    await employee.getByRole('link', { name: 'Create an account' }).click();
    const emailField = employee.getByLabel('Email', { exact: true });
    await emailField.waitFor();
    expect(await emailField.inputValue()).toBe(EMPLOYEE.email);
    expect(await emailField.getAttribute('readonly')).not.toBeNull();
    await employee.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await employee.getByLabel('Confirm password').fill(PASSWORD);
    await employee.getByLabel('First name', { exact: true }).fill(EMPLOYEE.first);
    await employee.getByLabel('Last name', { exact: true }).fill(EMPLOYEE.last);
    await employee.getByRole('checkbox', { name: /terms of service/ }).check();
    await employee.getByRole('checkbox', { name: /allow cookies/ }).check();
    const sawCreated = await watchForButton(employee, signupMessages.created);
    await employee.getByRole('button', { name: 'Create account' }).click();
    await sawCreated();

    // Back on the invitation, signed in as the invited address.
    await employee.getByRole('button', { name: 'Join Zipper Fitness' }).click();
    await employee.waitForURL((url) => url.pathname === '/dashboard');
    await employee
      .getByRole('region', { name: 'Account' })
      .getByText('Zipper Fitness · Organization')
      .waitFor();

    // Settings from the user menu, then the kiosk PIN.
    await employee.getByRole('button', { name: /^User menu:/ }).click();
    await employee.getByRole('link', { name: 'Settings' }).click();
    await employee.getByRole('heading', { name: 'Kiosk PIN' }).waitFor();
    await employee.getByLabel('PIN', { exact: true }).fill(PIN);
    await employee.getByLabel('Confirm PIN').fill(PIN);
    await employee.getByRole('button', { name: 'Save PIN' }).click();
    await employee.getByText(kioskMessages.pinSaved).waitFor();
    await employee.context().close();
  });

  it('lets the employee clock in with that PIN at a kiosk the owner started', async () => {
    const kiosk = await newPage();
    await logIn(kiosk, env.server.url, demoLogins.owner.email);
    await kiosk
      .getByRole('region', { name: 'Account' })
      .getByRole('link', { name: 'Enter kiosk mode' })
      .click();
    await kiosk.getByRole('button', { name: 'Start kiosk mode' }).click();
    await kiosk.getByRole('heading', { name: 'Tap your name' }).waitFor();
    await kiosk.getByRole('button', { name: EMPLOYEE_NAME }).click();
    await kiosk.getByRole('heading', { name: `Hello, ${EMPLOYEE_NAME}` }).waitFor();
    // Where a PIN is set, for whoever has none yet or forgot theirs.
    // A QR code to open on one's phone, and the address written out — no link that would open
    // someone's settings on the shared kiosk.
    const settingsUrl = `${env.server.url}/dashboard/settings#kiosk-pin`;
    await kiosk.getByRole('img', { name: `QR code that opens ${settingsUrl}` }).waitFor();
    await kiosk.getByText(settingsUrl).waitFor();
    expect(await kiosk.getByRole('link', { name: /settings/ }).count()).toBe(0);
    await kiosk.getByLabel('PIN', { exact: true }).fill(PIN);
    await kiosk.getByRole('button', { name: 'Continue' }).click();
    await kiosk.getByRole('heading', { name: EMPLOYEE_NAME, exact: true }).waitFor();
    await kiosk.getByRole('button', { name: 'Clock In', exact: true }).click();
    await kiosk.getByRole('heading', { name: 'Tap your name' }).waitFor();

    const [person] = await env.server.db
      .select()
      .from(users)
      .where(eq(users.email, EMPLOYEE.email));
    await expect
      .poll(
        async () =>
          (
            await env.server.db
              .select()
              .from(timeEntries)
              .where(and(eq(timeEntries.userId, person?.id ?? ''), eq(timeEntries.deleted, false)))
          ).length,
        { timeout: 20_000 },
      )
      .toBe(1);
    await kiosk.context().close();
  });

  it('shows the owner the member with a PIN set, lets them change the role, not remove themself', async () => {
    await owner.reload();
    const row = teamRow(owner, EMPLOYEE_NAME);
    await row.getByText('Front desk', { exact: true }).waitFor();
    await row.getByText('Set', { exact: true }).waitFor();
    expect(await owner.getByRole('list', { name: 'Invitations waiting' }).count()).toBe(0);

    const change = row.getByRole('button', { name: `Change role of ${EMPLOYEE_NAME}` });
    await change.click();
    const dialog = owner.getByRole('dialog', { name: `What ${EMPLOYEE_NAME} may do` });
    await dialog.getByRole('radio', { name: 'Coach' }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await owner.getByText(teamMessages.memberChanged(EMPLOYEE_NAME)).waitFor();
    await row.getByText('Coach', { exact: true }).waitFor();
    await expect.poll(() => isFocused(change)).toBe(true);

    const me = teamRow(owner, 'Olivia Owner');
    const removeMe = me.getByRole('button', { name: 'Remove yourself from the team' });
    await removeMe.click();
    const confirm = owner.getByRole('dialog', { name: 'Remove yourself from the team?' });
    await confirm.getByRole('button', { name: 'Remove from team' }).click();
    await confirm.getByRole('alert').getByText(teamMessages.lastManager).waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => isFocused(removeMe)).toBe(true);
    await me.getByText('Owner', { exact: true }).waitFor();
  });
});
