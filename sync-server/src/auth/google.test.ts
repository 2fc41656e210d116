import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberships, rosterItems, users } from '@platform/schema/db';
import { insertTestOrg, insertTestUser, uniqueEmail } from '../testing/auth-fixtures.ts';
import { CookieJar } from '../testing/cookie-jar.ts';
import { GOOGLE_TEST_CLIENT_ID, googleSigner } from '../testing/google-signer.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

const CLIENT_ID = GOOGLE_TEST_CLIENT_ID;
const signer = googleSigner;

describe.each(testDatabaseKinds)('Google sign-in on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let google: Awaited<ReturnType<typeof signer>>;
  const form = (
    url: string,
    fields: Record<string, string>,
    cookies: Record<string, string> = {},
  ) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(Object.keys(cookies).length
          ? {
              cookie: Object.entries(cookies)
                .map(([k, v]) => `${k}=${v}`)
                .join('; '),
            }
          : {}),
      },
      payload: new URLSearchParams(fields).toString(),
    });
  const me = (res: { cookies: Array<{ name: string; value: string }> }) =>
    t.app.inject({ method: 'GET', url: '/api/me', headers: new CookieJar().store(res).headers() });

  beforeAll(async () => {
    google = await signer();
    t = await createTestApp(kind, {
      env: { GOOGLE_CLIENT_ID: CLIENT_ID },
      googleKeys: google.keys,
    });
  });
  afterAll(() => t.close());

  it('publishes the client id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/config' });
    expect(res.json()).toEqual({ googleClientId: CLIENT_ID });
  });

  it('creates a customer for a new Google account and signs them in', async () => {
    const email = uniqueEmail('g');
    const token = await google.sign({
      sub: 'google-new-1',
      email,
      given_name: 'Gina',
      family_name: 'Gale',
    });
    const res = await form('/auth/login-with-google', {
      id_token: token,
      redirect_to: '/dashboard-customer',
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/dashboard-customer');
    const body = (await me(res)).json();
    expect(body).toMatchObject({ fullName: 'Gina Gale', email, view: 'customer', org: null });
    const [row] = await t.db.select().from(users).where(eq(users.googleSubject, 'google-new-1'));
    expect(row).toMatchObject({ email, passwordHash: null });
    expect(row?.emailVerifiedAt).toBeInstanceOf(Date);

    // The next sign-in finds the same account by its Google subject.
    const again = await form('/auth/login-with-google', {
      id_token: await google.sign({ sub: 'google-new-1', email }),
    });
    expect((await me(again)).json()).toMatchObject({ id: row!.id });
  });

  it('links an existing account by a verified address', async () => {
    const user = await insertTestUser(t.db);
    const token = await google.sign({ sub: 'google-link-1', email: user.email!.toUpperCase() });
    const res = await form('/auth/login-with-google', {
      id_token: token,
      redirect_to: 'https://evil.example',
    });
    expect(res.headers.location).toBe('/dashboard');
    expect((await me(res)).json()).toMatchObject({ id: user.id });
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.googleSubject).toBe('google-link-1');
  });

  it('does not hand over an account for an unverified address', async () => {
    const user = await insertTestUser(t.db);
    const token = await google.sign({
      sub: 'google-unverified',
      email: user.email,
      email_verified: false,
    });
    const res = await form('/auth/login-with-google', { id_token: token });
    expect(res.headers.location).toBe('/auth/login?error=google');
    expect(res.cookies).toEqual([]);
  });

  it('makes a new Google user the owner of the organisation from the signup form', async () => {
    const token = await google.sign({
      sub: 'google-owner',
      email: uniqueEmail('owner'),
      given_name: 'Olly',
      family_name: 'Owner',
    });
    const res = await form('/auth/login-with-google', {
      id_token: token,
      org_fields: JSON.stringify({ companyName: 'Google Gym' }),
    });
    expect(res.headers.location).toBe('/dashboard/sites/create');
    const body = (await me(res)).json<{ id: string; view: string; org: { label: string } }>();
    expect(body).toMatchObject({ view: 'org', org: { label: 'Google Gym' } });
    const rows = await t.db.select().from(memberships).where(eq(memberships.userId, body.id));
    expect(rows).toMatchObject([{ kind: 'staff' }]);
  });

  it('takes a short company name as signup does, and refuses an empty one instead of making a customer', async () => {
    const short = await google.sign({
      sub: 'google-short',
      email: uniqueEmail('short'),
      given_name: 'Al',
      family_name: 'Bo',
    });
    const ok = await form('/auth/login-with-google', {
      id_token: short,
      org_fields: JSON.stringify({ companyName: 'Al' }),
    });
    expect(ok.headers.location).toBe('/dashboard/sites/create');
    expect((await me(ok)).json()).toMatchObject({ view: 'org', org: { label: 'Al' } });

    const empty = await google.sign({
      sub: 'google-empty',
      email: uniqueEmail('empty'),
      given_name: 'Em',
      family_name: 'Pty',
    });
    const refused = await form('/auth/login-with-google', {
      id_token: empty,
      org_fields: JSON.stringify({ companyName: '  ' }),
    });
    expect(refused.headers.location).toBe('/auth/login?error=google');
    expect(refused.cookies).toEqual([]);
  });

  it('refuses a wrong audience, an expired token, a forged signature and no token', async () => {
    const email = uniqueEmail('bad');
    const tokens = [
      await google.sign(
        { sub: 'bad-1', email },
        { audience: 'someone-else.apps.googleusercontent.com' },
      ),
      await google.sign({ sub: 'bad-2', email }, { expiresIn: Math.floor(Date.now() / 1000) - 60 }),
      await google.sign({ sub: 'bad-3', email }, { key: google.forger }),
      'not.a.jwt',
    ];
    for (const token of tokens) {
      const res = await form('/auth/login-with-google', { id_token: token });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/auth/login?error=google');
      expect(res.cookies).toEqual([]);
    }
    expect((await form('/auth/login-with-google', {})).headers.location).toBe(
      '/auth/login?error=google',
    );
    expect(await t.db.select().from(users).where(eq(users.email, email))).toEqual([]);
  });

  describe('Google Identity Services redirect mode', () => {
    /** What Google's page posts back: the credential and its double-submitted CSRF token. */
    const postedByGoogle = (token: string, redirectTo: string) =>
      t.app.inject({
        method: 'POST',
        url: `/auth/external/login/google?redirectTo=${encodeURIComponent(redirectTo)}`,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: 'https://accounts.google.com',
          cookie: 'g_csrf_token=abc123',
        },
        payload: new URLSearchParams({ credential: token, g_csrf_token: 'abc123' }).toString(),
      });

    it('accepts the credential with a matching g_csrf_token, from accounts.google.com', async () => {
      const token = await google.sign({ sub: 'gis-1', email: uniqueEmail('gis') });
      const res = await postedByGoogle(token, '/dashboard/crm');
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/dashboard/crm');
      expect((await me(res)).statusCode).toBe(200);
    });

    it('never redirects off-site, also through dot segments', async () => {
      const token = await google.sign({ sub: 'gis-dots', email: uniqueEmail('gis') });
      const res = await postedByGoogle(token, '/..//evil.example');
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/dashboard');
    });

    it('refuses a credential without the matching CSRF cookie, and other sites', async () => {
      const token = await google.sign({ sub: 'gis-2', email: uniqueEmail('gis') });
      const url = '/auth/external/login/google';
      expect(
        (await form(url, { credential: token, g_csrf_token: 'abc' }, { g_csrf_token: 'xyz' }))
          .headers.location,
      ).toBe('/auth/login?error=google');
      expect((await form(url, { credential: token })).headers.location).toBe(
        '/auth/login?error=google',
      );
      const evil = await t.app.inject({
        method: 'POST',
        url,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: 'https://evil.example',
        },
        payload: new URLSearchParams({ id_token: token }).toString(),
      });
      expect(evil.statusCode).toBe(403);
    });

    it('makes a new Google user a customer of the organisation whose branded app they came from', async () => {
      const org = await insertTestOrg(t.db, 'Branded Gym');
      const email = uniqueEmail('gb');
      const token = await google.sign({
        sub: 'gis-branded',
        email,
        given_name: 'Bea',
        family_name: 'Branded',
      });
      const res = await form(`/auth/external/login/google?orgId=${org.id}`, { id_token: token });
      expect(res.headers.location).toBe(`/dashboard-customer/${org.id}`);
      const body = (await me(res)).json<{ id: string }>();
      expect(body).toMatchObject({ view: 'customer', org: { id: org.id } });
      const items = await t.db.select().from(rosterItems).where(eq(rosterItems.userId, body.id));
      expect(items).toMatchObject([
        { orgId: org.id, firstName: 'Bea', lastName: 'Branded', email },
      ]);

      // Signing in again from the branded app changes nothing; an unknown organisation is ignored.
      const again = await form(`/auth/external/login/google?orgId=${org.id}`, {
        id_token: await google.sign({ sub: 'gis-branded', email }),
      });
      expect(again.headers.location).toBe('/dashboard');
      const strayToken = await google.sign({ sub: 'gis-stray', email: uniqueEmail('gs') });
      const stray = await form(`/auth/external/login/google?orgId=${randomUUID()}`, {
        id_token: strayToken,
      });
      expect(stray.headers.location).toBe('/dashboard');
      expect((await me(stray)).json()).toMatchObject({ view: 'customer', org: null });
    });

    it('accepts a plain id_token too', async () => {
      const token = await google.sign({ sub: 'gis-3', email: uniqueEmail('gis') });
      const res = await form('/auth/external/login/google', { id_token: token });
      expect(res.headers.location).toBe('/dashboard');
      expect(res.cookies.map((c) => c.name).sort()).toEqual(['access_token', 'refresh_token']);
    });
  });
});

// Touches no database, so one kind (the faster to build) is enough.
describe(`Google sign-in without GOOGLE_CLIENT_ID on ${testDatabaseKinds[0]}`, () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp(testDatabaseKinds[0]!);
  });
  afterAll(() => t.close());

  it('says it is unavailable', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/config' })).json()).toEqual({
      googleClientId: null,
    });
    for (const url of ['/auth/login-with-google', '/auth/external/login/google']) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'id_token=whatever',
      });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/auth/login?error=google-unavailable');
    }
  });
});
