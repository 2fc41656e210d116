import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { impersonationMessages } from '@platform/schema/auth/auth.messages';
import { auditLog, sessions } from '@platform/schema/db';
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

type Me = {
  id: string;
  view: string;
  org: { id: string } | null;
  allowReturnTo: { name: string } | null;
};

describe.each(testDatabaseKinds)('switch accounts (POST /auth/login as a form) on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  const switchTo = (jar: CookieJar, fields: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { ...jar.headers(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });
  const me = async (jar: CookieJar) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/me', headers: jar.headers() });
    return { status: res.statusCode, body: res.json<Me>() };
  };
  const snapshot = (jar: CookieJar) =>
    new CookieJar()
      .set('access_token', jar.get('access_token')!)
      .set('refresh_token', jar.get('refresh_token')!);

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  async function family() {
    const org = await insertTestOrg(t.db);
    const guardian = await insertTestUser(t.db, { firstName: 'Pat', lastName: 'Parent' });
    const child = await insertTestUser(t.db, {
      firstName: 'Casey',
      lastName: 'Parent',
      email: null,
      withPassword: false,
    });
    await addMembership(t.db, guardian.id, org.id, 'customer');
    await addMembership(t.db, child.id, org.id, 'customer');
    await linkChild(t.db, guardian.id, child.id, org.id);
    return { org, guardian, child };
  }

  it('lets a guardian act as their child, and the child return to the guardian', async () => {
    const { org, guardian, child } = await family();
    const { jar } = await logInAs(t.app, guardian.email!);
    const guardianCookies = snapshot(jar);

    const res = await switchTo(jar, {
      impersonate: child.id,
      redirectTo: '/dashboard-customer',
      profileType: 'use-latest',
      profileOrgId: '',
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/dashboard-customer');
    jar.store(res);
    expect((await me(jar)).body).toMatchObject({
      id: child.id,
      view: 'customer',
      org: { id: org.id },
      allowReturnTo: { name: 'Pat Parent' },
    });
    // The guardian's own session ended with the switch.
    expect((await me(guardianCookies)).status).toBe(401);
    const [childSession] = await t.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, child.id)));
    expect(childSession).toMatchObject({ returnToUserId: guardian.id, impersonatorUserId: null });
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.subjectUserId, child.id));
    expect(audit).toMatchObject({
      action: 'impersonate',
      actorUserId: guardian.id,
      subjectUserId: child.id,
      orgId: org.id,
    });

    const back = await switchTo(jar, { impersonate: guardian.id, redirectTo: '/dashboard' });
    expect(back.statusCode).toBe(303);
    jar.store(back);
    expect((await me(jar)).body).toMatchObject({ id: guardian.id, allowReturnTo: null });
    const trail = await t.db.select().from(auditLog).where(eq(auditLog.actorUserId, guardian.id));
    expect(trail.map((row) => [row.action, row.subjectUserId])).toEqual([
      ['impersonate', child.id],
      ['impersonate', guardian.id],
    ]);
  });

  it('keeps a guardian who names no organisation in the one they are in', async () => {
    const { org, guardian, child } = await family();
    // The child is a customer of another organisation too, joined first: it comes first in
    // the child's list, and must not be where the guardian lands.
    const earlier = await insertTestOrg(t.db);
    await addMembership(t.db, child.id, earlier.id, 'customer');
    await t.db.execute(
      sql`update memberships set created_at = now() - interval '1 day' where user_id = ${child.id} and org_id = ${earlier.id}`,
    );
    const { jar } = await logInAs(t.app, guardian.email!, {
      profileType: 'use-customer',
      profileOrgId: org.id,
    });
    const res = await switchTo(jar, { impersonate: child.id, redirectTo: '/dashboard' });
    expect(res.statusCode).toBe(303);
    jar.store(res);
    expect((await me(jar)).body).toMatchObject({ id: child.id, org: { id: org.id } });
  });

  it('switches between the profiles of one person and audits it', async () => {
    const person = await insertTestUser(t.db);
    const gym = await insertTestOrg(t.db);
    const shop = await insertTestOrg(t.db);
    await addMembership(t.db, person.id, gym.id, 'staff');
    await addMembership(t.db, person.id, shop.id, 'customer');
    const { jar } = await logInAs(t.app, person.email!, { profileType: 'use-org' });

    const toShop = await switchTo(jar, {
      impersonate: person.id,
      profileType: 'use-customer',
      profileOrgId: shop.id,
      redirectTo: '/dashboard-customer',
    });
    expect(toShop.statusCode).toBe(303);
    jar.store(toShop);
    expect((await me(jar)).body).toMatchObject({
      id: person.id,
      view: 'customer',
      org: { id: shop.id },
      allowReturnTo: null,
    });

    const toGym = await switchTo(jar, {
      impersonate: person.id,
      profileType: 'use-org',
      profileOrgId: gym.id,
    });
    expect(toGym.headers.location).toBe('/dashboard');
    jar.store(toGym);
    expect((await me(jar)).body).toMatchObject({ view: 'org', org: { id: gym.id } });
    const trail = await t.db.select().from(auditLog).where(eq(auditLog.subjectUserId, person.id));
    expect(trail.map((row) => [row.action, row.orgId])).toEqual([
      ['switch-profile', shop.id],
      ['switch-profile', gym.id],
    ]);

    // Staff view of an org one is only a customer of, or a customer view of a stranger org: no.
    const before = snapshot(jar);
    expect(
      (
        await switchTo(jar, {
          impersonate: person.id,
          profileType: 'use-org',
          profileOrgId: shop.id,
        })
      ).statusCode,
    ).toBe(403);
    const stranger = await insertTestOrg(t.db);
    expect(
      (
        await switchTo(jar, {
          impersonate: person.id,
          profileType: 'use-customer',
          profileOrgId: stranger.id,
        })
      ).statusCode,
    ).toBe(403);
    expect((await me(before)).body).toMatchObject({ view: 'org', org: { id: gym.id } });
    // No org named: the customer view without an org is always allowed.
    const plain = await switchTo(jar, {
      impersonate: person.id,
      profileType: 'use-customer',
      profileOrgId: '',
    });
    expect(plain.statusCode).toBe(303);
  });

  it("refuses another family's child, a staff member, and leaves the session as it was", async () => {
    const { guardian, org } = await family();
    const other = await family();
    const staff = await insertTestUser(t.db);
    await addMembership(t.db, staff.id, org.id, 'staff');
    const { jar } = await logInAs(t.app, guardian.email!);
    for (const target of [other.child.id, staff.id, other.guardian.id]) {
      const res = await switchTo(jar, { impersonate: target, redirectTo: '/dashboard' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ message: impersonationMessages.refused });
      expect(res.cookies).toEqual([]);
    }
    // Staff cannot act as the customers of their organisation either.
    const { jar: staffJar } = await logInAs(t.app, staff.email!);
    expect((await switchTo(staffJar, { impersonate: guardian.id })).statusCode).toBe(403);
    expect((await me(jar)).body).toMatchObject({ id: guardian.id });
    expect(await t.db.select().from(auditLog).where(eq(auditLog.actorUserId, guardian.id))).toEqual(
      [],
    );
  });

  it('never lets a guardian link reach a platform admin or anyone who is staff', async () => {
    const { org, guardian } = await family();
    // However such links came about, they give no way into these accounts.
    const admin = await insertTestUser(t.db, {
      firstName: 'Ada',
      lastName: 'Admin',
      role: 'admin',
    });
    const staffer = await insertTestUser(t.db, { firstName: 'Sam', lastName: 'Staff' });
    await addMembership(t.db, staffer.id, org.id, 'staff');
    await linkChild(t.db, guardian.id, admin.id, org.id);
    await linkChild(t.db, guardian.id, staffer.id, org.id);
    const { jar } = await logInAs(t.app, guardian.email!);
    for (const target of [admin.id, staffer.id]) {
      const res = await switchTo(jar, {
        impersonate: target,
        profileType: 'use-org',
        profileOrgId: org.id,
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ message: impersonationMessages.refused });
    }
    expect((await me(jar)).body.id).toBe(guardian.id);
  });

  it('asks for a session first (401) and a valid form (400)', async () => {
    const { child, guardian } = await family();
    expect((await switchTo(new CookieJar(), { impersonate: child.id })).statusCode).toBe(401);
    const { jar } = await logInAs(t.app, guardian.email!);
    expect((await switchTo(jar, { impersonate: 'not-a-uuid' })).statusCode).toBe(400);
    expect((await switchTo(jar, { identifier: guardian.email!, password: 'x' })).statusCode).toBe(
      400,
    );
  });

  it('never redirects off-site after a switch', async () => {
    const { child, guardian } = await family();
    for (const redirectTo of ['//evil.example/steal', '/..//evil.example', '/.//evil.example']) {
      const { jar } = await logInAs(t.app, guardian.email!);
      const res = await switchTo(jar, { impersonate: child.id, redirectTo });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/dashboard');
    }
  });

  it('lets a platform admin act as anyone, on record, and come back', async () => {
    const admin = await insertTestUser(t.db, {
      role: 'admin',
      firstName: 'Ada',
      lastName: 'Admin',
    });
    const { guardian } = await family();
    const { jar } = await logInAs(t.app, admin.email!);
    const res = await switchTo(jar, { impersonate: guardian.id });
    expect(res.statusCode).toBe(303);
    jar.store(res);
    expect((await me(jar)).body).toMatchObject({
      id: guardian.id,
      allowReturnTo: { name: 'Ada Admin' },
    });
    const [row] = await t.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, guardian.id), eq(sessions.impersonatorUserId, admin.id)));
    expect(row).toBeDefined();
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.actorUserId, admin.id));
    expect(audit).toMatchObject({ action: 'impersonate', subjectUserId: guardian.id });

    const back = await switchTo(jar, { impersonate: admin.id });
    expect(back.statusCode).toBe(303);
    jar.store(back);
    expect((await me(jar)).body).toMatchObject({ id: admin.id, allowReturnTo: null });
  });
});
