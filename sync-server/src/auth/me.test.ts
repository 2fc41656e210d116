import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizations, users } from '@platform/schema/db';
import { claims } from '@platform/schema/organizations/claims';
import {
  addMembership,
  insertTestOrg,
  insertTestUser,
  linkChild,
  logInAs,
} from '../testing/auth-fixtures.ts';
import { CookieJar } from '../testing/cookie-jar.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

describe.each(testDatabaseKinds)('/api/me on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  const me = (jar: CookieJar) =>
    t.app.inject({ method: 'GET', url: '/api/me', headers: jar.headers() });

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('answers 401 without a session', async () => {
    expect((await me(new CookieJar())).statusCode).toBe(401);
    expect(
      (await me(new CookieJar().set('access_token', 'forged').set('refresh_token', 'forged')))
        .statusCode,
    ).toBe(401);
  });

  it('describes a staff member in org view: org, claims, profiles and children', async () => {
    const gym = await insertTestOrg(t.db, 'Iron Gym');
    await t.db.update(organizations).set({ attributes: { timezone: 'Europe/Amsterdam' } }).where(eq(organizations.id, gym.id));
    const shop = await insertTestOrg(t.db, 'Yoga Shop');
    const user = await insertTestUser(t.db, {
      firstName: 'Olivia',
      lastName: 'Owner',
      username: `olivia${Date.now()}`,
    });
    const child = await insertTestUser(t.db, {
      firstName: 'Kid',
      lastName: 'Owner',
      email: null,
      withPassword: false,
    });
    await addMembership(t.db, user.id, gym.id, 'staff', ['manage-org-settings', 'view-customers']);
    await addMembership(t.db, user.id, shop.id, 'customer');
    await linkChild(t.db, user.id, child.id);
    const { jar } = await logInAs(t.app, user.email!, {
      profileType: 'use-org',
      profileOrgId: gym.id,
    });

    const res = await me(jar);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: user.id,
      fullName: 'Olivia Owner',
      firstName: 'Olivia',
      lastName: 'Owner',
      email: user.email,
      username: user.username,
      role: 'user',
      view: 'org',
      org: { id: gym.id, label: 'Iron Gym', platform: 'zipper', timezone: 'Europe/Amsterdam' },
      attributes: { sidebarExpanded: true, profileAvatarImageUrl: null },
      allowReturnTo: null,
      claims: ['manage-org-settings', 'view-customers'],
      profiles: [
        { orgId: gym.id, label: 'Iron Gym', view: 'org' },
        { orgId: shop.id, label: 'Yoga Shop', view: 'customer' },
      ],
      children: [{ id: child.id, fullName: 'Kid Owner' }],
      pendingRequests: 0,
    });
  });

  it('shows no claims in customer view, and the guardian to return to after a switch', async () => {
    const gym = await insertTestOrg(t.db);
    const guardian = await insertTestUser(t.db, { firstName: 'Pat', lastName: 'Parent' });
    const child = await insertTestUser(t.db, {
      firstName: 'Casey',
      lastName: 'Parent',
      email: null,
      withPassword: false,
    });
    await addMembership(t.db, guardian.id, gym.id, 'staff', [...claims]);
    await linkChild(t.db, guardian.id, child.id);
    const { jar } = await logInAs(t.app, guardian.email!, { profileType: 'use-customer' });
    expect((await me(jar)).json()).toMatchObject({ view: 'customer', org: null, claims: [] });

    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { ...jar.headers(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ impersonate: child.id }).toString(),
    });
    jar.store(res);
    expect((await me(jar)).json()).toMatchObject({
      id: child.id,
      email: null,
      allowReturnTo: { id: guardian.id, name: 'Pat Parent' },
      profiles: [],
      children: [],
    });
  });

  it('saves sidebarExpanded without touching the remembered profile', async () => {
    const org = await insertTestOrg(t.db);
    const user = await insertTestUser(t.db);
    await addMembership(t.db, user.id, org.id, 'customer');
    const { jar } = await logInAs(t.app, user.email!, {
      profileType: 'use-customer',
      profileOrgId: org.id,
    });
    const save = (payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/me/attributes',
        headers: jar.headers(),
        payload: payload as Record<string, unknown>,
      });

    const res = await save({ sidebarExpanded: false, lastProfile: { view: 'org', orgId: org.id } });
    expect(res.statusCode).toBe(200);
    expect((await me(jar)).json()).toMatchObject({
      attributes: { sidebarExpanded: false, profileAvatarImageUrl: null },
    });
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.attributes).toEqual({
      sidebarExpanded: false,
      lastProfile: { view: 'customer', orgId: org.id },
    });

    expect((await save({ sidebarExpanded: 'yes' })).statusCode).toBe(400);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/me/attributes',
          payload: { sidebarExpanded: true },
        })
      ).statusCode,
    ).toBe(401);
  });
});
