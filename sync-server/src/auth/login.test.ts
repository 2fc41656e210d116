import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginMessages } from '@platform/schema/auth/auth.messages';
import { sessions } from '@platform/schema/db';
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
import { signInLimits } from './sign-in-limits.ts';

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

  describe('limits (per address, and per account at one address with backoff)', () => {
    const FREE_FAILURES = signInLimits.perAccountAtAddress.waitAfter;
    const PER_ADDRESS = signInLimits.perAddress.limit;
    const wrong = (identifier: string, remoteAddress: string, headers: Record<string, string> = {}) =>
      t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { identifier, password: 'not-the-password' },
        remoteAddress,
        headers,
      });

    it('never lets a stranger elsewhere stop the owner: 100 failures at 203.0.113.9, alice logs in from 198.51.100.7 at once', async () => {
      const alice = await insertTestUser(t.db);
      const statuses: number[] = [];
      for (let i = 0; i < 100; i++) statuses.push((await wrong(alice.email!, '203.0.113.9')).statusCode);
      expect(statuses.slice(0, FREE_FAILURES)).toEqual(Array(FREE_FAILURES).fill(401));
      expect(statuses.slice(FREE_FAILURES).every((status) => status === 429)).toBe(true);
      const owner = await login({ identifier: alice.email, password: TEST_PASSWORD }, '198.51.100.7');
      expect(owner.statusCode).toBe(200);
    });

    it(`makes one account at one address wait after ${FREE_FAILURES} failures, the right password included, with Retry-After`, async () => {
      const user = await insertTestUser(t.db);
      const address = freshIp();
      for (let i = 0; i < FREE_FAILURES; i++) expect((await wrong(user.email!, address)).statusCode).toBe(401);
      const refused = await login({ identifier: user.email, password: TEST_PASSWORD }, address);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ message: loginMessages.tooManyAttempts });
      expect(refused.headers['retry-after']).toBe(
        String(signInLimits.perAccountAtAddress.firstWaitMs / 1000),
      );
      expect(refused.cookies).toEqual([]);
      // The same account from elsewhere, and another account from here, are not held up.
      expect((await login({ identifier: user.email, password: TEST_PASSWORD })).statusCode).toBe(200);
      const other = await insertTestUser(t.db);
      expect((await login({ identifier: other.email, password: TEST_PASSWORD }, address)).statusCode).toBe(200);
    });

    it(`lets no burst slip past: of 20 concurrent guesses for one account at one address, ${FREE_FAILURES} are checked`, async () => {
      const user = await insertTestUser(t.db);
      const address = freshIp();
      const statuses = (
        await Promise.all(Array.from({ length: 20 }, () => wrong(user.email!, address)))
      ).map((res) => res.statusCode);
      expect(statuses.filter((status) => status === 401)).toHaveLength(FREE_FAILURES);
      expect(statuses.filter((status) => status === 429)).toHaveLength(20 - FREE_FAILURES);
    });

    it(`refuses an address after ${PER_ADDRESS} failures from it across accounts; sign-ins that succeed do not count`, async () => {
      const user = await insertTestUser(t.db);
      const address = freshIp();
      for (let i = 0; i < PER_ADDRESS - 1; i++)
        expect((await wrong(uniqueEmail(`guess-${i}`), address)).statusCode).toBe(401);
      for (let i = 0; i < 3; i++)
        expect((await login({ identifier: user.email, password: TEST_PASSWORD }, address)).statusCode).toBe(200);
      expect((await wrong(uniqueEmail('last'), address)).statusCode).toBe(401);
      const refused = await login({ identifier: user.email, password: TEST_PASSWORD }, address);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ message: loginMessages.tooManyAttempts });
      // One more failure fits once 1/50 of the 15 minutes has passed (less the test's own time).
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(signInLimits.perAddress.perMs / PER_ADDRESS / 1000);
      expect((await login({ identifier: user.email, password: TEST_PASSWORD })).statusCode).toBe(200);
    });

    it('ignores a spoofed X-Forwarded-For when TRUST_PROXY is unset', async () => {
      const user = await insertTestUser(t.db);
      const address = freshIp();
      for (let i = 0; i < FREE_FAILURES; i++) expect((await wrong(user.email!, address)).statusCode).toBe(401);
      const spoofed = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { identifier: user.email, password: TEST_PASSWORD },
        remoteAddress: address,
        headers: { 'x-forwarded-for': '198.51.100.23' },
      });
      expect(spoofed.statusCode).toBe(429);
    });

    it('takes the client address from X-Forwarded-For when TRUST_PROXY names the proxy, and only from it', async () => {
      const proxy = '192.0.2.250';
      const behind = await createTestApp(kind, { env: { TRUST_PROXY: proxy } });
      try {
        const user = await insertTestUser(behind.db);
        const via = (client: string, password: string, remoteAddress = proxy) =>
          behind.app.inject({
            method: 'POST',
            url: '/auth/login',
            payload: { identifier: user.email, password },
            remoteAddress,
            headers: { 'x-forwarded-for': client },
          });
        for (let i = 0; i < FREE_FAILURES; i++)
          expect((await via('203.0.113.50', 'not-the-password')).statusCode).toBe(401);
        expect((await via('203.0.113.50', TEST_PASSWORD)).statusCode).toBe(429);
        // Another client behind the same proxy is another address.
        expect((await via('198.51.100.24', TEST_PASSWORD)).statusCode).toBe(200);
        // A socket that is not the proxy cannot name the address: its own is used.
        const untrusted = '192.0.2.251';
        for (let i = 0; i < FREE_FAILURES; i++)
          expect((await via('198.51.100.25', 'not-the-password', untrusted)).statusCode).toBe(401);
        expect((await via('198.51.100.26', TEST_PASSWORD, untrusted)).statusCode).toBe(429);
      } finally {
        await behind.close();
      }
      // A second app on a database of its own: slow on a busy machine.
    }, 90_000);
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
