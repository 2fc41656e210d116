import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crmMessages } from '@platform/schema/crm/crm.messages';
import type { AddCustomerResponse } from '@platform/schema/crm/crm.zod';
import { rosterItems } from '@platform/schema/db';
import { addMembership, insertTestUser, logInAs, uniqueEmail } from '../testing/auth-fixtures.ts';
import type { CookieJar } from '../testing/cookie-jar.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { mailsTo, seedFamilies } from '../families/families.fixtures.ts';
import { findLiveInvitation } from './invitations.repository.ts';
import { enrolCustomer } from './roster.service.ts';

const tokenIn = (textBody: string) =>
  decodeURIComponent(/invitation=([^\s&]+)/.exec(textBody)?.[1] ?? '');

/**
 * Issue 14: "Resend invitation" for someone on the list who has not answered — a new link
 * that replaces the old one; refused for another organisation's customer (404), for someone
 * who already answered (409), for staff without view-customers (403).
 */
describe.each(testDatabaseKinds)('sending a customer invitation again on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let f: Awaited<ReturnType<typeof seedFamilies>>;
  let otherManager: CookieJar;
  const resend = (jar: CookieJar, rosterId: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/crm/customers/${rosterId}/invitation`,
      headers: jar.headers(),
    });

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await seedFamilies(t.app, t.db);
    const outsider = await insertTestUser(t.db);
    await addMembership(t.db, outsider.id, f.otherOrg.id, 'staff');
    otherManager = (await logInAs(t.app, outsider.email!, { profileType: 'use-org' })).jar;
  });
  afterAll(() => t.close());

  it('sends a new link that replaces the first one', async () => {
    const email = uniqueEmail('invitee');
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/crm/customers',
      headers: f.manager.jar.headers(),
      payload: { customerEmail: email, customerFirstName: 'Ivy', customerLastName: 'Invitee' },
    });
    expect(added.statusCode).toBe(201);
    const rosterId = added.json<AddCustomerResponse>().id;
    const first = tokenIn((await mailsTo(t.db, email))[0]!.textBody);
    expect(await findLiveInvitation(t.db, first)).toBeDefined();

    const answer = await resend(f.manager.jar, rosterId.toUpperCase());
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ inviteSent: true });
    const mails = await mailsTo(t.db, email);
    expect(mails).toHaveLength(2);
    const second = tokenIn(mails.map((m) => m.textBody).find((body) => tokenIn(body) !== first)!);
    expect(await findLiveInvitation(t.db, second)).toBeDefined();
    expect(await findLiveInvitation(t.db, first)).toBeUndefined();

    // Not for another organisation's staff, nor for staff without the customer list.
    expect((await resend(otherManager, rosterId)).statusCode).toBe(404);
    expect((await resend(f.clerk.jar, rosterId)).statusCode).toBe(403);
    expect((await resend(f.manager.jar, 'not-an-id')).statusCode).toBe(404);
  });

  it('refuses someone who already answered', async () => {
    // The parent is this organisation's customer, with no invitation waiting.
    await t.db.transaction((tx) => enrolCustomer(tx, f.org.id, f.parent));
    const [item] = await t.db.select().from(rosterItems).where(eq(rosterItems.userId, f.parent.id));
    const rosterId = item!.id;
    const answer = await resend(f.manager.jar, rosterId);
    expect(answer.statusCode).toBe(409);
    expect(answer.json().message).toBe(crmMessages.invitationNotPending);
  });
});
