import { describe, expect, it } from 'vitest';
import { demoLogins, logIn, useServerAndBrowser } from '../../scripts/e2e/harness.ts';

/**
 * Decision 0035 as people meet it: an organisation that adds an existing account invites it,
 * and a guardian link someone else made waits for the account's owner — both answered under
 * Requests in the owner's settings, announced by a bar on every page.
 */
describe('requests waiting for the account owner', () => {
  const env = useServerAndBrowser();

  it('an invited person accepts a gym’s invitation; a stranger’s guardian request is removed', async () => {
    // Zipper's owner adds the Jobber owner (an existing account) as a customer: an invitation.
    const owner = await (await env.browser.newContext()).newPage();
    await logIn(owner, env.server.url, demoLogins.owner.email);
    const added = await owner.request.post(`${env.server.url}/api/crm/customers`, {
      data: { customerEmail: demoLogins.jobber.email, sendInviteEmails: false },
    });
    expect(added.status()).toBe(201);
    // Someone names the Jobber owner's address as their child's: a request to confirm.
    const parent = await (await env.browser.newContext()).newPage();
    await logIn(parent, env.server.url, demoLogins.parent.email);
    const me = (await (await parent.request.get(`${env.server.url}/api/me`)).json()) as {
      id: string;
    };
    const child = await parent.request.post(`${env.server.url}/api/auth/create-account`, {
      data: {
        action: 'create-children',
        guardianUserId: me.id,
        signupDtos: [{ firstName: 'Not', lastName: 'Mine', email: demoLogins.jobber.email }],
        skipResetPasswordMail: true,
      },
    });
    expect(child.status()).toBe(200);

    const page = await (
      await env.browser.newContext({ viewport: { width: 390, height: 844 } })
    ).newPage();
    await logIn(page, env.server.url, demoLogins.jobber.email);
    const notice = page
      .getByRole('status')
      .filter({ hasText: '2 requests are waiting for your answer.' });
    await notice.getByRole('link', { name: 'Review' }).click();
    const requests = page.getByRole('region', { name: 'Requests' });
    const invitation = requests
      .getByRole('listitem')
      .filter({ hasText: 'Zipper Fitness invited you to be one of their customers.' });
    await invitation
      .getByRole('button', { name: 'Accept the invitation of Zipper Fitness' })
      .click();
    await page.getByText('You are now a customer of Zipper Fitness.').waitFor();
    await invitation.waitFor({ state: 'detached' });

    const guardian = requests
      .getByRole('listitem')
      .filter({ hasText: 'Pat Parent asked to be your parent/guardian.' });
    await guardian.getByRole('button', { name: 'Remove Pat Parent' }).click();
    await page.getByText('Request removed.').waitFor();
    await requests.getByText('Nothing is waiting for your answer.').waitFor();
    await notice.waitFor({ state: 'detached' });

    // Zipper's list shows them as a customer now (no longer invited).
    const profile = await owner.request.get(
      `${env.server.url}/api/crm/customers/${((await added.json()) as { id: string }).id}`,
    );
    expect(await profile.json()).toMatchObject({ invitationPending: false });
    for (const p of [owner, parent, page]) await p.context().close();
  });
});
