import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { familyMessages } from '@platform/schema/families/families.messages';
import { signupMessages } from '@platform/schema/auth/auth.messages';
import { guardianLinks, memberships, organizations, rosterItems, users } from '@platform/schema/db';
import { claims } from '@platform/schema/organizations/claims';
import { insertTestOrg, insertTestUser, uniqueEmail } from '../testing/auth-fixtures.ts';
import { CookieJar } from '../testing/cookie-jar.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

const PASSWORD = 'long-enough-password';

describe.each(testDatabaseKinds)('POST /api/auth/create-account on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  const createAccount = (payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/create-account',
      payload: payload as Record<string, unknown>,
    });
  const signup = (dto: Record<string, unknown>) =>
    createAccount({
      action: 'signup',
      signupDto: {
        email: uniqueEmail(),
        password: PASSWORD,
        firstName: 'Sam',
        lastName: 'Lee',
        ...dto,
      },
    });
  const me = (res: { cookies: Array<{ name: string; value: string }> }) =>
    t.app.inject({ method: 'GET', url: '/api/me', headers: new CookieJar().store(res).headers() });

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('creates an organisation, its owner with every claim, and signs them in (org view)', async () => {
    const email = uniqueEmail('Owner').toUpperCase();
    const res = await signup({
      email,
      companyName: 'Peak Performance',
      companyLocation: 'Austin, TX',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ success: boolean; userId: string; redirectTo: string }>();
    expect(body).toEqual({
      success: true,
      userId: expect.any(String),
      redirectTo: '/dashboard/sites/create',
    });

    const [user] = await t.db.select().from(users).where(eq(users.id, body.userId));
    expect(user?.email).toBe(email.toLowerCase());
    expect(user?.passwordHash).toMatch(/^\$argon2id\$/);
    const [membership] = await t.db
      .select()
      .from(memberships)
      .where(eq(memberships.userId, body.userId));
    expect(membership).toMatchObject({ kind: 'staff' });
    expect([...(membership?.claims ?? [])].sort()).toEqual([...claims].sort());
    const [org] = await t.db
      .select()
      .from(organizations)
      .where(eq(organizations.id, membership!.orgId));
    expect(org).toMatchObject({
      label: 'Peak Performance',
      platform: 'zipper',
      companyLocation: 'Austin, TX',
      attributes: { coachingBusinessName: 'Peak Performance', timezone: 'America/New_York' },
    });
    expect((await me(res)).json()).toMatchObject({
      id: body.userId,
      view: 'org',
      org: { id: org!.id, label: 'Peak Performance' },
    });
  });

  it('honours a safe redirectTo for both account types', async () => {
    expect(
      (await signup({ companyName: 'Acme Gym', redirectTo: '/dashboard/crm' })).json(),
    ).toMatchObject({ redirectTo: '/dashboard/crm' });
    expect((await signup({ redirectTo: '/dashboard-customer' })).json()).toMatchObject({
      redirectTo: '/dashboard-customer',
    });
    expect((await signup({ redirectTo: 'https://evil.example' })).json()).toMatchObject({
      redirectTo: '/dashboard',
    });
  });

  it('creates a customer of the given organisation, with children linked to them', async () => {
    const org = await insertTestOrg(t.db, 'Branded Gym');
    const childEmail = uniqueEmail('kid');
    const res = await signup({
      orgId: org.id,
      children: [
        { id: 'row-1', firstName: 'Ada', lastName: 'Lee', email: '', dateOfBirth: '2018-09-30' },
        { firstName: 'Bo', lastName: 'Lee', email: childEmail, dateOfBirth: '' },
      ],
    });
    expect(res.statusCode).toBe(200);
    const { userId, redirectTo } = res.json<{ userId: string; redirectTo: string }>();
    // Joined through the organisation's app: its dashboard, and its customer list (CRM).
    expect(redirectTo).toBe(`/dashboard-customer/${org.id}`);
    const roster = await t.db.select().from(rosterItems).where(eq(rosterItems.orgId, org.id));
    expect(roster.map((r) => r.firstName).sort()).toEqual(['Ada', 'Bo', 'Sam']);
    expect(roster.find((r) => r.userId === userId)).toMatchObject({
      email: expect.any(String),
      deleted: false,
    });
    const links = await t.db
      .select()
      .from(guardianLinks)
      .where(eq(guardianLinks.guardianUserId, userId));
    expect(links).toHaveLength(2);
    // The family made the links (decision 0003: org_id names staff's organisation only).
    expect(links.every((link) => link.orgId === null)).toBe(true);
    const kids = await Promise.all(
      links.map(
        async (l) => (await t.db.select().from(users).where(eq(users.id, l.childUserId)))[0],
      ),
    );
    expect(
      kids.map((k) => [k?.firstName, k?.email, k?.passwordHash, k?.dateOfBirth]).sort(),
    ).toEqual([
      ['Ada', null, null, '2018-09-30'],
      ['Bo', childEmail, null, null],
    ]);
    const body = (await me(res)).json<{
      view: string;
      org: { id: string };
      children: Array<{ fullName: string }>;
      profiles: unknown[];
    }>();
    expect(body).toMatchObject({
      view: 'customer',
      org: { id: org.id },
      profiles: [{ orgId: org.id, view: 'customer' }],
    });
    // Bo has an address: Sam acts for Bo once Bo confirms (decision 0035); Ada is the family's.
    expect(body.children.map((c) => c.fullName)).toEqual(['Ada Lee']);
    expect(
      links.find((link) => link.childUserId === kids.find((k) => k?.firstName === 'Bo')?.id),
    ).toMatchObject({ confirmedAt: null });
  });

  it('creates a customer without an organisation', async () => {
    const res = await signup({ middleName: 'Q' });
    expect(res.statusCode).toBe(200);
    expect((await me(res)).json()).toMatchObject({
      view: 'customer',
      org: null,
      profiles: [],
      children: [],
    });
  });

  it('refuses an address already registered, whatever its case', async () => {
    const existing = await insertTestUser(t.db);
    const res = await signup({ email: existing.email!.toUpperCase() });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      errorType: 'validation',
      errors: [{ field: 'email', message: signupMessages.emailTaken }],
    });
    expect(res.cookies).toEqual([]);
  });

  it('lists each invalid field with the exact spec message', async () => {
    const res = await createAccount({
      action: 'signup',
      signupDto: { email: 'nope', password: 'short', firstName: ' ', lastName: '' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      errorType: 'validation',
      errors: [
        { field: 'email', message: signupMessages.invalidEmail },
        { field: 'password', message: signupMessages.passwordTooShort },
        { field: 'firstName', message: signupMessages.firstNameRequired },
        { field: 'lastName', message: signupMessages.lastNameRequired },
      ],
    });
  });

  it('refuses names too long to store on a customer list (they replicate to staff devices)', async () => {
    const long = 'x'.repeat(151);
    const res = await signup({ firstName: long, children: [{ firstName: 'A', lastName: long }] });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: Array<{ field: string }> }>().errors.map((e) => e.field)).toEqual([
      'firstName',
      'children.0.lastName',
    ]);
  });

  it('refuses an unknown organisation, children on an organisation signup, and repeated child addresses', async () => {
    const unknownOrg = await signup({ orgId: '00000000-0000-4000-8000-000000000000' });
    expect(unknownOrg.json()).toMatchObject({
      errors: [{ field: 'orgId', message: signupMessages.unknownOrganization }],
    });

    const orgWithKids = await signup({
      companyName: 'Kids Co',
      children: [{ firstName: 'A', lastName: 'B' }],
    });
    expect(orgWithKids.json()).toMatchObject({
      errors: [{ field: 'children', message: signupMessages.childrenOnlyForCustomers }],
    });

    const taken = await insertTestUser(t.db);
    const shared = uniqueEmail('twin');
    const kids = await signup({
      children: [
        { firstName: 'A', lastName: 'B', email: taken.email },
        { firstName: 'C', lastName: 'D', email: shared },
        { firstName: 'E', lastName: 'F', email: shared },
      ],
    });
    expect(kids.statusCode).toBe(400);
    // An address in use is not said (decision 0035): only the repeat is refused.
    expect(kids.json()).toEqual({
      success: false,
      errorType: 'validation',
      errors: [{ field: 'children.2.email', message: familyMessages.childEmailRepeated }],
    });
    const invalidChild = await signup({
      children: [{ firstName: '', lastName: 'B', email: 'bad' }],
    });
    expect(invalidChild.statusCode).toBe(400);
    expect(
      invalidChild.json<{ errors: Array<{ field: string }> }>().errors.map((e) => e.field),
    ).toEqual(['children.0.email', 'children.0.firstName']);
  });

  it('answers 400, never 500, to malformed requests and unknown actions', async () => {
    for (const payload of [
      { action: 'explode' },
      { signupDto: {} },
      { action: 'signup' },
      { action: 'signup', signupDto: 'text' },
      [],
    ]) {
      const res = await createAccount(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    for (const raw of ['null', '42', '"signup"', '{not json']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/create-account',
        headers: { 'content-type': 'application/json' },
        payload: raw,
      });
      expect(res.statusCode, raw).toBe(400);
    }
    const empty = await t.app.inject({ method: 'POST', url: '/api/auth/create-account' });
    expect(empty.statusCode).toBe(400);
  });

  it('lets exactly one of two simultaneous signups with one address through', async () => {
    const email = uniqueEmail('race');
    const [a, b] = await Promise.all([signup({ email }), signup({ email })]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
  });
});
