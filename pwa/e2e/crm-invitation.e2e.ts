import { describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { emailOutbox } from '@platform/schema/db';
import { signupMessages } from '@platform/schema/auth/auth.messages';
import {
  demoLogins,
  logIn,
  useServerAndBrowser,
  watchForButton,
} from '../../scripts/e2e/harness.ts';

const PASSWORD = 'a-long-password-1';

/** Issue 7: the invitation email's link completes signup with the email read-only. */
describe('an invited customer', () => {
  const env = useServerAndBrowser();

  it("signs up from the invitation link, the email read-only, and lands in the organisation's app", async () => {
    const { server, browser } = env;
    const staff = await (await browser.newContext()).newPage();
    await logIn(staff, server.url, demoLogins.owner.email);
    const email = 'invited.iris@customer.example';
    const added = await staff.request.post(`${server.url}/api/crm/customers`, {
      headers: { origin: server.url },
      data: {
        customerEmail: email,
        customerFirstName: 'Iris',
        customerLastName: 'Invited',
        externalPayments: false,
        sendInviteEmails: true,
      },
    });
    expect(added.status()).toBe(201);
    const [mail] = await server.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, email))
      .orderBy(desc(emailOutbox.createdAt));
    const link = /https?:\/\/\S+\/auth\/signup\?\S+/.exec(mail?.textBody ?? '')?.[0];
    expect(link).toBeDefined();

    const visitor = await (await browser.newContext()).newPage();
    await visitor.goto(link ?? '');
    const emailField = visitor.getByLabel('Email', { exact: true });
    await emailField.waitFor();
    expect(await emailField.inputValue()).toBe(email);
    expect(await emailField.getAttribute('readonly')).not.toBeNull();
    await visitor.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await visitor.getByLabel('Confirm password').fill(PASSWORD);
    await visitor.getByLabel('First name', { exact: true }).fill('Iris');
    await visitor.getByLabel('Last name', { exact: true }).fill('Invited');
    await visitor.getByRole('checkbox', { name: /terms of service/ }).check();
    await visitor.getByRole('checkbox', { name: /allow cookies/ }).check();
    const sawCreated = await watchForButton(visitor, signupMessages.created);
    await visitor.getByRole('button', { name: 'Create account' }).click();
    await sawCreated();
    await visitor.waitForURL(
      (url) => url.pathname === `/dashboard-customer/${server.seed.zipperOrgId}`,
    );
    const me = (await (await visitor.request.get(`${server.url}/api/me`)).json()) as {
      email: string;
      view: string;
      org: { id: string } | null;
    };
    expect(me).toMatchObject({ email, view: 'customer', org: { id: server.seed.zipperOrgId } });
  });
});
