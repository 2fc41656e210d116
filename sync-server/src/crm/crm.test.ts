import type { AddCustomerResponse } from '@platform/schema/crm/crm.zod';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inviteMessages, crmMessages } from '@platform/schema/crm/crm.messages';
import type { CustomerProfile, RosterSearchResponse } from '@platform/schema/crm/crm.zod';
import { organizations, rosterItems, users } from '@platform/schema/db';
import { insertTestUser, logInAs, TEST_PASSWORD, uniqueEmail } from '../testing/auth-fixtures.ts';
import type { CookieJar } from '../testing/cookie-jar.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { enrolCustomer } from './roster.service.ts';
import { enrolmentOf, mailsTo, seedFamilies } from '../families/families.fixtures.ts';

type Added = AddCustomerResponse;

describe.each(testDatabaseKinds)('CRM API on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let f: Awaited<ReturnType<typeof seedFamilies>>;
  const call = (
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    jar: CookieJar | null,
    payload?: object,
  ) =>
    t.app.inject({ method, url, headers: jar?.headers() ?? {}, ...(payload ? { payload } : {}) });
  const add = (jar: CookieJar | null, payload: object) =>
    call('POST', '/api/crm/customers', jar, payload);
  const rosterIdOf = async (userId: string) => {
    const [row] = await t.db.select().from(rosterItems).where(eq(rosterItems.userId, userId));
    return row!.id;
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    f = await seedFamilies(t.app, t.db);
    // The seed makes memberships only; the CRM reads roster items.
    await t.db.transaction(async (tx) => {
      for (const [orgId, person] of [
        [f.org.id, f.parent],
        [f.org.id, f.child],
        [f.otherOrg.id, f.stranger],
      ] as const)
        await enrolCustomer(tx, orgId, person);
    });
  });

  it('adds a new customer: a password-less account, a roster item, an invitation email', async () => {
    const email = uniqueEmail('new');
    const res = await add(f.manager.jar, {
      customerEmail: ` ${email.toUpperCase()} `,
      customerPhone: '(201) 555-0123',
      customerFirstName: 'Nina',
      customerLastName: 'New',
      externalPayments: false,
    });
    expect(res.statusCode).toBe(201);
    const added = res.json<Added>();
    expect(added).toMatchObject({
      athlete: { fullName: 'Nina New', firstName: 'Nina', lastName: 'New', email },
      invitedPerson: { email, firstName: 'Nina', lastName: 'New' },
      inviteSent: true,
    });
    // Issue 14: read as a number of the organisation's country (New York: US), stored E.164.
    const [item] = await t.db.select().from(rosterItems).where(eq(rosterItems.id, added.id));
    expect(item?.phone).toBe('+12015550123');
    const [user] = await t.db.select().from(users).where(eq(users.id, added.athlete.id));
    // An account this organisation made, nobody's yet (decision 0035).
    expect(user).toMatchObject({ passwordHash: null, claimedAt: null, createdByOrgId: f.org.id });
    expect(await enrolmentOf(t.db, added.athlete.id)).toEqual({
      customerOf: [f.org.id],
      rosterOrgs: [f.org.id],
    });
    const [mail] = await mailsTo(t.db, email);
    expect(mail?.textBody).toContain(
      `/auth/signup?orgId=${f.org.id}&email=${encodeURIComponent(email)}&invitation=`,
    );
  });

  it('refuses a phone number that is not one, with a clear message (issue 14)', async () => {
    const res = await add(f.manager.jar, {
      customerEmail: uniqueEmail('badphone'),
      customerPhone: '555-0142',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { field: 'customerPhone', message: crmMessages.invalidPhone },
    ]);

    // In a London gym the same kind of typing means a UK number.
    await t.db
      .update(organizations)
      .set({ attributes: { timezone: 'Europe/London' } })
      .where(eq(organizations.id, f.org.id));
    const uk = await add(f.manager.jar, {
      customerEmail: uniqueEmail('ukphone'),
      customerPhone: '020 7946 0958',
    });
    expect(uk.statusCode).toBe(201);
    const [item] = await t.db
      .select()
      .from(rosterItems)
      .where(eq(rosterItems.id, uk.json<Added>().id));
    expect(item?.phone).toBe('+442079460958');
  });

  it('sends no email when Send invite emails is off', async () => {
    const email = uniqueEmail('quiet');
    const res = await add(f.manager.jar, { customerEmail: email, sendInviteEmails: false });
    expect(res.statusCode).toBe(201);
    expect(res.json<Added>().inviteSent).toBe(false);
    expect(await mailsTo(t.db, email)).toHaveLength(0);
  });

  it('invites an existing account instead of enrolling it, answering as for a new address', async () => {
    const typed = { customerFirstName: 'Typed', customerLastName: 'Name' };
    const existing = await add(f.manager.jar, {
      customerEmail: f.stranger.email!.toUpperCase(),
      ...typed,
    });
    const fresh = await add(f.manager.jar, { customerEmail: uniqueEmail('fresh'), ...typed });
    expect(existing.statusCode).toBe(201);
    // The same shape and values either way: nothing says the address had an account.
    const shape = (body: Added) => ({
      ...body,
      id: 'x',
      athlete: { ...body.athlete, id: 'x', email: 'x' },
      invitedPerson: { ...body.invitedPerson, email: 'x' },
    });
    expect(shape(existing.json<Added>())).toEqual(shape(fresh.json<Added>()));
    const added = existing.json<Added & { athlete: { firstName: string } }>();
    expect(added.athlete.id).toBe(f.stranger.id);
    expect(added.athlete.firstName).toBe('Typed');
    expect(await t.db.select().from(users).where(eq(users.email, f.stranger.email!))).toHaveLength(
      1,
    );
    // On the list as invited, but not a customer until they accept.
    const enrolment = await enrolmentOf(t.db, f.stranger.id);
    expect(enrolment.customerOf).toEqual([f.otherOrg.id]);
    expect(enrolment.rosterOrgs.sort()).toEqual([f.otherOrg.id, f.org.id].sort());
    const profile = await t.app.inject({
      method: 'GET',
      url: `/api/crm/customers/${added.id}`,
      headers: f.manager.jar.headers(),
    });
    expect(profile.json()).toMatchObject({ invitationPending: true });
    // An account that signs in gets a log-in link to answer, never a claim link.
    const [mail] = await mailsTo(t.db, f.stranger.email!);
    expect(mail?.textBody).toContain('/auth/login');
    expect(mail?.textBody).not.toContain('invitation=');
  });

  it('says "Already a customer" for an address on the list, with its profile', async () => {
    const email = uniqueEmail('twice');
    const first = await add(f.manager.jar, { customerEmail: email });
    const again = await add(f.manager.jar, { customerEmail: email.toUpperCase() });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      error: 'AlreadyCustomer',
      message: 'Already a customer',
      details: { rosterId: first.json<Added>().id, invitationPending: true },
    });
    expect(await mailsTo(t.db, email)).toHaveLength(1);
  });

  it('answers the spec §5 messages exactly; names only required with external payments', async () => {
    const bad = await add(f.manager.jar, { customerEmail: 'nope', externalPayments: true });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ errors: unknown[] }>().errors).toEqual([
      { field: 'customerEmail', message: inviteMessages.invalidEmail },
      { field: 'customerFirstName', message: inviteMessages.firstNameRequired },
      { field: 'customerLastName', message: inviteMessages.lastNameRequired },
    ]);
    expect(inviteMessages).toMatchObject({
      invalidEmail: 'Email is invalid',
      firstNameRequired: 'First name is required',
      lastNameRequired: 'Last name is required',
      creationFailed: 'Something went wrong creating this user. The product has been notified!',
    });
    expect((await add(f.manager.jar, { customerEmail: uniqueEmail() })).statusCode).toBe(201);
  });

  it('keeps a customer added with external payments as a record, and says so on the profile', async () => {
    const profileOf = async (payload: object) => {
      const added = (await add(f.manager.jar, payload)).json<Added>();
      return (
        await call('GET', `/api/crm/customers/${added.id}`, f.manager.jar)
      ).json<CustomerProfile>();
    };
    const record = await profileOf({
      customerEmail: uniqueEmail('cash'),
      customerFirstName: 'Cass',
      customerLastName: 'Cash',
      externalPayments: true,
    });
    expect(record.externalPayments).toBe(true);
    const member = await profileOf({ customerEmail: uniqueEmail('card') });
    expect(member.externalPayments).toBe(false);
  });

  it('refuses staff without view-customers (403), customers (403) and visitors (401)', async () => {
    for (const [jar, status] of [
      [f.clerk.jar, 403],
      [f.parent.jar, 403],
      [null, 401],
    ] as const) {
      expect((await add(jar, { customerEmail: uniqueEmail() })).statusCode).toBe(status);
      expect((await call('GET', '/api/crm/customers', jar)).statusCode).toBe(status);
      expect((await call('GET', `/api/crm/redirect?userId=${f.parent.id}`, jar)).statusCode).toBe(
        status,
      );
    }
    expect((await call('GET', '/api/crm/customers', f.clerk.jar)).json()).toMatchObject({
      message: crmMessages.notAllowed,
    });
  });

  it('searches its own organisation only: prefix, typo, email, phone, tag; pages with a cursor', async () => {
    // Own people for each row (the roster is one item per person).
    const people = await Promise.all(
      [
        ['Jonathan', 'Smithers', '555-123-4567', ['vip']],
        ['Joanna', 'Baker', null, []],
        ['Mike', 'Jonas', null, ['vip']],
      ].map(async ([first, last, phone, tags]) => {
        const u = await insertTestUser(t.db, {
          firstName: first as string,
          lastName: last as string,
        });
        await t.db.insert(rosterItems).values({
          orgId: f.org.id,
          userId: u.id,
          firstName: first as string,
          lastName: last as string,
          email: u.email,
          phone: phone as string | null,
          tags: tags as string[],
          updatedAt: new Date(),
        });
        return u;
      }),
    );
    const search = async (query: string, jar = f.manager.jar) => {
      const res = await call('GET', `/api/crm/customers?${query}`, jar);
      expect(res.statusCode).toBe(200);
      return res.json<RosterSearchResponse>();
    };
    const names = (r: RosterSearchResponse) => r.rows.map((row) => row.firstName);
    expect(names(await search('q=jo'))).toEqual(
      expect.arrayContaining(['Jonathan', 'Joanna', 'Mike']),
    );
    expect(names(await search('q=smithrs'))).toContain('Jonathan'); // a typo
    expect(names(await search(`q=${encodeURIComponent(people[1]!.email!)}`))).toEqual(['Joanna']);
    expect(names(await search('q=(555)%20123'))).toEqual(['Jonathan']);
    expect(names(await search('tag=vip')).sort()).toEqual(['Jonathan', 'Mike']);
    expect(names(await search('tag=VIP')).sort()).toEqual(['Jonathan', 'Mike']);
    // Another organisation's customer never shows.
    expect((await search('q=Elsewhere')).rows).toEqual([]);
    // Keyset paging through the whole list: no row twice, none missed.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: RosterSearchResponse = await search(
        `limit=2&sort=lastName${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.hasMore).toBe(page.nextCursor !== null);
      seen.push(...page.rows.map((r) => r.rosterId));
      cursor = page.nextCursor;
    } while (cursor);
    const all = await search('limit=100');
    expect(seen).toEqual(all.rows.map((r) => r.rosterId));
    expect(all.total).toBe(all.rows.length);
    expect((await call('GET', '/api/crm/customers?limit=101', f.manager.jar)).statusCode).toBe(400);
  });

  it('shows a profile, keeps notes, metrics and tags; 404 for another organisation', async () => {
    const rosterId = await rosterIdOf(f.parent.id);
    const note = await call('POST', `/api/crm/customers/${rosterId}/notes`, f.manager.jar, {
      body: 'Prefers mornings',
    });
    expect(note.statusCode).toBe(201);
    expect(note.json()).toMatchObject({
      body: 'Prefers mornings',
      authorId: f.manager.id,
      authorName: 'Morgan Manager',
    });
    const metric = await call('POST', `/api/crm/customers/${rosterId}/metrics`, f.manager.jar, {
      name: 'Weight',
      value: '72 kg',
      measuredOn: '2026-11-20',
    });
    expect(metric.statusCode).toBe(201);
    const tagged = await call(
      'PUT',
      `/api/crm/customers/${rosterId.toUpperCase()}/tags`,
      f.manager.jar,
      { tags: ['vip', 'VIP', ' Vip ', 'am'] },
    );
    expect(tagged.statusCode).toBe(200);
    // spec §5: the server refuses what the profile's tag form refuses, in the same words.
    const withComma = await call('PUT', `/api/crm/customers/${rosterId}/tags`, f.manager.jar, {
      tags: ['vip', 'am,pm'],
    });
    expect(withComma.statusCode).toBe(400);
    expect(withComma.json()).toMatchObject({
      errors: [{ field: 'tags.1', message: crmMessages.tagHasComma }],
    });
    const profile = (
      await call('GET', `/api/crm/customers/${rosterId}`, f.manager.jar)
    ).json<CustomerProfile>();
    expect(profile).toMatchObject({
      rosterId,
      contact: { id: f.parent.id, firstName: 'Pat', lastName: 'Parent' },
      children: [{ id: f.child.id, firstName: 'Casey' }],
      guardians: [],
      tags: ['vip', 'am'],
      notes: [{ body: 'Prefers mornings' }],
      metrics: [{ name: 'Weight', value: '72 kg', measuredOn: '2026-11-20' }],
    });
    expect(profile.activity.map((a) => a.kind).sort()).toEqual(['joined', 'metric', 'note']);
    expect(
      (
        await call('POST', `/api/crm/customers/${rosterId}/notes`, f.manager.jar, { body: ' ' })
      ).json(),
    ).toMatchObject({
      errors: [{ field: 'body', message: crmMessages.noteRequired }],
    });

    const foreign = await rosterIdOf(f.stranger.id);
    for (const [method, url, payload] of [
      ['GET', `/api/crm/customers/${foreign}`, undefined],
      ['PUT', `/api/crm/customers/${foreign}/tags`, { tags: ['x'] }],
      ['POST', `/api/crm/customers/${foreign}/notes`, { body: 'x' }],
      [
        'POST',
        `/api/crm/customers/${foreign}/metrics`,
        { name: 'a', value: 'b', measuredOn: '2026-01-01' },
      ],
      ['GET', `/api/crm/redirect?rosterId=${foreign}`, undefined],
      ['GET', `/api/crm/redirect?userId=${f.stranger.id}`, undefined],
      ['GET', '/api/crm/customers/not-a-uuid', undefined],
    ] as const) {
      const res = await call(method, url, f.manager.jar, payload);
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('Elsewhere');
    }
    expect(
      (await call('PUT', `/api/crm/customers/${rosterId}/tags`, f.clerk.jar, { tags: [] }))
        .statusCode,
    ).toBe(403);
  });

  it('resolves the redirect from a rosterId or a userId (any case)', async () => {
    const rosterId = await rosterIdOf(f.parent.id);
    for (const query of [`rosterId=${rosterId.toUpperCase()}`, `userId=${f.parent.id}`]) {
      const res = await call('GET', `/api/crm/redirect?${query}`, f.manager.jar);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ rosterId });
    }
  });

  it('accepts the invitation through signup: the invited account is claimed, once', async () => {
    const email = uniqueEmail('invitee');
    const added = (await add(f.manager.jar, { customerEmail: email })).json<Added>();
    const [mail] = await mailsTo(t.db, email);
    const token = decodeURIComponent(/invitation=([^\s&]+)/.exec(mail!.textBody)![1]!);
    const signup = (dto: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/create-account',
        payload: {
          action: 'signup',
          signupDto: {
            email,
            password: TEST_PASSWORD,
            firstName: 'Ivy',
            lastName: 'Invitee',
            orgId: f.org.id,
            ...dto,
          },
        },
      });
    // Without the token the address is taken, as for any account.
    expect((await signup({})).statusCode).toBe(400);
    // Another address with the token: one refusal for every mismatch.
    const wrong = await signup({ email: uniqueEmail(), invitation: token });
    expect(wrong.json()).toMatchObject({
      errors: [{ field: 'invitation', message: crmMessages.invitationInvalid }],
    });

    const ok = await signup({ invitation: token });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      success: true,
      userId: added.athlete.id,
      redirectTo: `/dashboard-customer/${f.org.id}`,
    });
    const [user] = await t.db.select().from(users).where(eq(users.id, added.athlete.id));
    expect(user?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(user?.emailVerifiedAt).not.toBeNull();
    const [item] = await t.db
      .select()
      .from(rosterItems)
      .where(eq(rosterItems.userId, added.athlete.id));
    expect(item).toMatchObject({ firstName: 'Ivy', lastName: 'Invitee' });
    await logInAs(t.app, email);
    // The link is used up.
    expect((await signup({ invitation: token, password: 'another-password' })).statusCode).toBe(
      400,
    );
    const profile = (
      await call('GET', `/api/crm/customers/${added.id}`, f.manager.jar)
    ).json<CustomerProfile>();
    expect(profile.invitationPending).toBe(false);
    expect(profile.activity.find((a) => a.kind === 'invited')?.text).toBe('Invited (accepted)');
  });
});
