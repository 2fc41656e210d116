import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginMessages } from '@platform/schema/auth/auth.messages';
import { loginAttempts, sessions } from '@platform/schema/db';
import {
  addMembership,
  insertTestOrg,
  insertTestUser,
  logInAs,
  TEST_PASSWORD,
  uniqueEmail,
} from '../testing/auth-fixtures.ts';
import { CookieJar } from '../testing/cookie-jar.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { MAX_FAILURES_PER_IDENTIFIER, MAX_FAILURES_PER_IP } from './login.service.ts';

const failure = { error: 'LoginFailed', message: loginMessages.failureBody };

describe.each(testDatabaseKinds)('POST /auth/login (JSON) on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let ipCounter = 0;
  const freshIp = () => `192.0.2.${++ipCounter}`;
  const login = (payload: unknown, remoteAddress = freshIp()) =>
    t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: payload as Record<string, unknown>,
      remoteAddress,
    });
  const me = (jar: CookieJar) =>
    t.app.inject({ method: 'GET', url: '/api/me', headers: jar.headers() });

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('logs in by email, whatever its case, answering the next path as text with session cookies', async () => {
    const user = await insertTestUser(t.db);
    const res = await login({
      identifier: `  ${user.email!.toUpperCase()} `,
      password: TEST_PASSWORD,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe('/dashboard');
    const jar = new CookieJar().store(res);
    expect(jar.get('access_token')).toBeTruthy();
    expect(jar.get('refresh_token')).toBeTruthy();
    expect((await me(jar)).json()).toMatchObject({ id: user.id, email: user.email });
  });

  it('logs in by username, case-insensitively', async () => {
    const username = `Coach_${Date.now()}`;
    const user = await insertTestUser(t.db, { username });
    const res = await login({ identifier: username.toLowerCase(), password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect((await me(new CookieJar().store(res))).json()).toMatchObject({ id: user.id, username });
  });

  it('answers unknown user, wrong password and password-less account identically', async () => {
    const user = await insertTestUser(t.db);
    const child = await insertTestUser(t.db, { withPassword: false });
    const wrong = await login({ identifier: user.email, password: 'not-the-password' });
    const unknown = await login({
      identifier: uniqueEmail('nobody'),
      password: 'not-the-password',
    });
    const noPassword = await login({ identifier: child.email, password: 'anything-at-all' });
    for (const res of [wrong, unknown, noPassword]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(failure);
      expect(res.cookies).toEqual([]);
    }
    expect(wrong.body).toBe(unknown.body);
  });

  it('refuses a malformed body with 400', async () => {
    expect((await login({ identifier: '', password: 'x' })).statusCode).toBe(400);
    expect((await login({ identifier: 'a@b.c' })).statusCode).toBe(400);
    const notObject = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '"hello"',
    });
    expect(notObject.statusCode).toBe(400);
    const badJson = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    expect(badJson.statusCode).toBe(400);
  });

  it('honours same-origin redirect paths and refuses open redirects', async () => {
    const user = await insertTestUser(t.db);
    const target = async (redirectTo: string) =>
      (await login({ identifier: user.email, password: TEST_PASSWORD, redirectTo })).body;
    expect(await target('/dashboard-customer?tab=shop')).toBe('/dashboard-customer?tab=shop');
    for (const evil of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      // Dot segments that normalise into //evil.example.
      '/..//evil.example',
      '/a/..//evil.example',
      '/%2e%2e//evil.example',
    ]) {
      expect(await target(evil)).toBe('/dashboard');
    }
  });

  it(`refuses the attempt after ${MAX_FAILURES_PER_IDENTIFIER} failures for one identifier, even with the right password`, async () => {
    const user = await insertTestUser(t.db);
    for (let i = 0; i < MAX_FAILURES_PER_IDENTIFIER; i++) {
      // Different addresses: the identifier limit alone must trigger.
      expect((await login({ identifier: user.email, password: `wrong-${i}` })).statusCode).toBe(
        401,
      );
    }
    const refused = await login({ identifier: user.email, password: TEST_PASSWORD });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ message: loginMessages.tooManyAttempts });
    expect(refused.cookies).toEqual([]);
  });

  it(`refuses an address after ${MAX_FAILURES_PER_IP} failures from it, across identifiers`, async () => {
    const user = await insertTestUser(t.db);
    const ip = '198.51.100.7';
    await t.db
      .insert(loginAttempts)
      .values(
        Array.from({ length: MAX_FAILURES_PER_IP }, (_, i) => ({
          identifier: `guess-${i}@example.test`,
          ip,
          succeeded: false,
        })),
      );
    const refused = await login({ identifier: user.email, password: TEST_PASSWORD }, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ message: loginMessages.tooManyAttempts });
    expect(
      (await login({ identifier: user.email, password: TEST_PASSWORD }, '198.51.100.8')).statusCode,
    ).toBe(200);
  });

  it('forgets failures older than the 15-minute window', async () => {
    const user = await insertTestUser(t.db);
    const identifier = user.email!;
    const old = sql`now() - interval '16 minutes'`;
    await t.db
      .insert(loginAttempts)
      .values(
        Array.from({ length: 20 }, () => ({
          identifier,
          ip: '203.0.113.9',
          succeeded: false,
          createdAt: old,
        })),
      );
    expect((await login({ identifier, password: TEST_PASSWORD }, '203.0.113.9')).statusCode).toBe(
      200,
    );
  });

  it('lands on the profile asked for, and remembers it for use-latest', async () => {
    const user = await insertTestUser(t.db);
    const shop = await insertTestOrg(t.db, 'Shop Org');
    const gym = await insertTestOrg(t.db, 'Gym Org');
    await addMembership(t.db, user.id, shop.id, 'customer');
    await addMembership(t.db, user.id, gym.id, 'staff');
    const view = async (extra: Record<string, unknown>) => {
      const { jar } = await logInAs(t.app, user.email!, extra);
      const body = (await me(jar)).json<{
        view: string;
        org: { id: string } | null;
        claims: string[];
      }>();
      return { view: body.view, orgId: body.org?.id ?? null, claims: body.claims.length };
    };
    expect(await view({})).toMatchObject({ view: 'org', orgId: gym.id });
    expect(await view({ profileType: 'use-customer', profileOrgId: shop.id })).toEqual({
      view: 'customer',
      orgId: shop.id,
      claims: 0,
    });
    expect(await view({ profileType: 'use-latest' })).toEqual({
      view: 'customer',
      orgId: shop.id,
      claims: 0,
    });
    expect(await view({ profileType: 'use-org' })).toMatchObject({ view: 'org', orgId: gym.id });
    expect((await view({ profileType: 'use-org' })).claims).toBeGreaterThan(0);
    // Not staff of the shop: falls back to use-latest (the gym, saved just before).
    expect(await view({ profileType: 'use-org', profileOrgId: shop.id })).toMatchObject({
      view: 'org',
      orgId: gym.id,
    });
    expect(await view({ profileType: 'use-customer' })).toMatchObject({
      view: 'customer',
      orgId: shop.id,
    });
  });

  it('gives a customer without memberships the customer view without an org', async () => {
    const user = await insertTestUser(t.db);
    const { jar } = await logInAs(t.app, user.email!, { profileType: 'use-org' });
    expect((await me(jar)).json()).toMatchObject({ view: 'customer', org: null, claims: [] });
  });

  describe('log-out', () => {
    const signedIn = async () => {
      const user = await insertTestUser(t.db);
      const { jar } = await logInAs(t.app, user.email!);
      return { user, jar };
    };
    const postLogout = (jar: CookieJar, origin: string) =>
      t.app.inject({
        method: 'POST',
        url: '/auth/logout',
        headers: { ...jar.headers(), origin, 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      });

    it('GET signs nobody out: it shows a page whose button posts /auth/logout', async () => {
      const { jar } = await signedIn();
      const res = await t.app.inject({ method: 'GET', url: '/auth/logout', headers: jar.headers() });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toMatch(/<form method="post" action="\/auth\/logout">\s*<button type="submit">Sign out<\/button>/);
      // Nothing runs on that page by itself: a cross-site link to it signs no one out.
      expect(res.body).not.toContain('<script');
      expect(res.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-/);
      expect(res.headers['set-cookie']).toBeUndefined();
      expect((await me(jar)).statusCode).toBe(200);
    });

    it('GET without a session goes to /auth/login', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/auth/logout' });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/auth/login');
    });

    it('the page’s form post revokes the session and sends the browser to /auth/login', async () => {
      const { jar } = await signedIn();
      const before = new CookieJar()
        .set('access_token', jar.get('access_token')!)
        .set('refresh_token', jar.get('refresh_token')!);
      const res = await postLogout(jar, 'http://localhost:3000');
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/auth/login');
      jar.store(res);
      expect(jar.get('access_token')).toBeUndefined();
      // The old cookies no longer work: the session row is revoked.
      expect((await me(before)).statusCode).toBe(401);
      expect((await me(before.delete('access_token'))).statusCode).toBe(401);
    });

    it('a post from another site is refused and signs nobody out', async () => {
      const { jar } = await signedIn();
      for (const origin of ['https://evil.example', 'null']) {
        expect((await postLogout(jar, origin)).statusCode).toBe(403);
      }
      expect((await me(jar)).statusCode).toBe(200);
    });

    it('POST answers 204 and revokes too', async () => {
      const user = await insertTestUser(t.db);
      const { jar } = await logInAs(t.app, user.email!);
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth/logout',
        headers: jar.headers(),
      });
      expect(res.statusCode).toBe(204);
      expect((await me(jar)).statusCode).toBe(401);
      const rows = await t.db.select().from(sessions).where(eq(sessions.userId, user.id));
      expect(rows.every((row) => row.revokedAt !== null)).toBe(true);
    });
  });

  describe('refresh tokens', () => {
    it('rotates the refresh token when the access cookie is missing', async () => {
      const user = await insertTestUser(t.db);
      const { jar } = await logInAs(t.app, user.email!);
      const firstRefresh = jar.get('refresh_token')!;
      jar.delete('access_token');
      const res = await me(jar);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: user.id });
      jar.store(res);
      expect(jar.get('access_token')).toBeTruthy();
      expect(jar.get('refresh_token')).not.toBe(firstRefresh);
    });

    it('revokes the session when an old refresh token is replayed after the grace period', async () => {
      const user = await insertTestUser(t.db);
      const { jar } = await logInAs(t.app, user.email!);
      const stolen = jar.get('refresh_token')!;
      jar.delete('access_token');
      const rotated = await me(jar);
      expect(rotated.statusCode).toBe(200);
      jar.store(rotated).delete('access_token');
      await t.db
        .update(sessions)
        .set({ refreshedAt: sql`now() - interval '2 minutes'` })
        .where(eq(sessions.userId, user.id));

      const replay = await me(new CookieJar().set('refresh_token', stolen));
      expect(replay.statusCode).toBe(401);
      // The rightful holder is signed out too: the whole session is gone.
      expect((await me(jar)).statusCode).toBe(401);
    });

    it('lets a second tab reuse the previous refresh token within the grace period', async () => {
      const user = await insertTestUser(t.db);
      const { jar } = await logInAs(t.app, user.email!);
      const previous = jar.get('refresh_token')!;
      jar.delete('access_token');
      expect((await me(jar)).statusCode).toBe(200);
      expect((await me(new CookieJar().set('refresh_token', previous))).statusCode).toBe(200);
    });

    it('keeps the first tab signed in after a second tab reused the previous token', async () => {
      const user = await insertTestUser(t.db);
      const { jar } = await logInAs(t.app, user.email!);
      const previous = jar.get('refresh_token')!;
      jar.delete('access_token');
      const tabA = await me(jar);
      expect(tabA.statusCode).toBe(200);
      jar.store(tabA); // tab A rotated: the browser now holds the new token
      const tabB = await me(new CookieJar().set('refresh_token', previous));
      expect(tabB.statusCode).toBe(200);
      expect(tabB.cookies.map((c) => c.name)).toEqual(['access_token']); // no second rotation
      // Long after the grace period, tab A's token is still the session's current one.
      await t.db.update(sessions).set({ refreshedAt: new Date(Date.now() - 3_600_000) }).where(eq(sessions.userId, user.id));
      jar.delete('access_token');
      expect((await me(jar)).statusCode).toBe(200);
    });
  });
});
