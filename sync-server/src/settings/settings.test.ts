import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterItems, users } from '@platform/schema/db';
import { signupMessages } from '@platform/schema/auth/auth.messages';
import { settingsMessages } from '@platform/schema/settings/settings.messages';
import { defaultNotificationPreferences } from '@platform/schema/settings/settings.zod';
import {
  addMembership,
  insertTestOrg,
  insertTestUser,
  linkChild,
  logInAs,
} from '../testing/auth-fixtures.ts';
import { signInLimits } from '../auth/sign-in-limits.ts';
import { CookieJar } from '../testing/cookie-jar.ts';
import { insertRosterItem, waitForVisibility } from '../testing/sync-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

describe.each(testDatabaseKinds)('POST /api/settings on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  const settings = (jar: CookieJar, payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/settings', headers: jar.headers(), payload });
  const pullRoster = async (jar: CookieJar, query = '') => {
    await waitForVisibility(t.db);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/sync/roster/pull${query}`,
      headers: jar.headers(),
    });
    expect(res.statusCode).toBe(200);
    return res.json<{
      documents: Array<{ athlete: { id: string; fullName: string } }>;
      checkpoint: { id: string; lsn: number } | null;
    }>();
  };

  /** A customer of two organisations, signed in as a customer of the first. */
  async function customerOfTwoOrgs() {
    const [gym, pool] = [await insertTestOrg(t.db), await insertTestOrg(t.db)];
    const user = await insertTestUser(t.db, { firstName: 'Pat', lastName: 'Parent' });
    for (const org of [gym, pool]) {
      await addMembership(t.db, user.id, org.id, 'customer');
      await insertRosterItem(t.db, org.id, user);
    }
    const { jar } = await logInAs(t.app, user.email!, {
      profileType: 'use-customer',
      profileOrgId: gym.id,
    });
    return { gym, pool, user, jar };
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('answers 401 without a session, before reading the body', async () => {
    const res = await settings(new CookieJar(), { action: 'get-settings' });
    expect(res.statusCode).toBe(401);
    expect((await settings(new CookieJar(), { action: 'nonsense' })).statusCode).toBe(401);
  });

  it('reads the profile, whether a password exists, and all notifications on by default', async () => {
    const { user, jar } = await customerOfTwoOrgs();
    const res = await settings(jar, { action: 'get-settings' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      firstName: 'Pat',
      middleName: '',
      lastName: 'Parent',
      email: user.email,
      hasPassword: true,
      notificationPreferences: defaultNotificationPreferences,
    });
  });

  it('renames the person and their roster items in every organisation, with a new change position', async () => {
    const { gym, pool, user, jar } = await customerOfTwoOrgs();
    const staff = await insertTestUser(t.db);
    await addMembership(t.db, staff.id, gym.id, 'staff');
    const { jar: staffJar } = await logInAs(t.app, staff.email!, {
      profileType: 'use-org',
      profileOrgId: gym.id,
    });
    const before = await pullRoster(jar);
    expect(before.documents.map((d) => d.athlete.fullName)).toEqual(['Rita Roster']);
    const staffBefore = await pullRoster(staffJar);

    const res = await settings(jar, {
      action: 'update-profile',
      firstName: '  Patricia ',
      middleName: ' Q ',
      lastName: 'Parent-Smith',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      firstName: 'Patricia',
      middleName: 'Q',
      lastName: 'Parent-Smith',
    });

    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ firstName: 'Patricia', middleName: 'Q', lastName: 'Parent-Smith' });
    const items = await t.db.select().from(rosterItems).where(eq(rosterItems.userId, user.id));
    expect(items.map((i) => [i.orgId, i.firstName, i.lastName]).sort()).toEqual(
      [
        [gym.id, 'Patricia', 'Parent-Smith'],
        [pool.id, 'Patricia', 'Parent-Smith'],
      ].sort(),
    );
    // Devices that already pulled past the item get it again: its position moved on.
    const since = (c: { id: string; lsn: number } | null) => (c ? `?id=${c.id}&lsn=${c.lsn}` : '');
    const after = await pullRoster(jar, since(before.checkpoint));
    expect(after.documents.map((d) => d.athlete.fullName)).toEqual(['Patricia Parent-Smith']);
    const staffAfter = await pullRoster(staffJar, since(staffBefore.checkpoint));
    expect(staffAfter.documents.map((d) => d.athlete.fullName)).toEqual(['Patricia Parent-Smith']);
  });

  it('lets a guardian’s device see a renamed child once the child renames themselves', async () => {
    const gym = await insertTestOrg(t.db);
    const parent = await insertTestUser(t.db);
    const child = await insertTestUser(t.db, { firstName: 'Kid' });
    for (const person of [parent, child]) {
      await addMembership(t.db, person.id, gym.id, 'customer');
      await insertRosterItem(t.db, gym.id, person);
    }
    await linkChild(t.db, parent.id, child.id, gym.id);
    const login = async (email: string) =>
      (await logInAs(t.app, email, { profileType: 'use-customer', profileOrgId: gym.id })).jar;
    const [parentJar, childJar] = [await login(parent.email!), await login(child.email!)];
    const before = await pullRoster(parentJar);
    expect(before.documents).toHaveLength(2);

    const renamed = await settings(childJar, {
      action: 'update-profile',
      firstName: 'Casey',
      lastName: 'Parent',
    });
    expect(renamed.statusCode).toBe(200);
    const c = before.checkpoint!;
    const after = await pullRoster(parentJar, `?id=${c.id}&lsn=${c.lsn}`);
    expect(after.documents.map((d) => [d.athlete.id, d.athlete.fullName])).toEqual([
      [child.id, 'Casey Parent'],
    ]);
  });

  it('refuses empty names with the signup messages, changing nothing', async () => {
    const { user, jar } = await customerOfTwoOrgs();
    const res = await settings(jar, { action: 'update-profile', firstName: '  ', lastName: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { field: 'firstName', message: signupMessages.firstNameRequired },
      { field: 'lastName', message: signupMessages.lastNameRequired },
    ]);
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.firstName).toBe('Pat');
  });

  it('changes the password after checking the current one, and signs out the other sessions', async () => {
    const user = await insertTestUser(t.db);
    const { jar } = await logInAs(t.app, user.email!);
    const { jar: otherDevice } = await logInAs(t.app, user.email!);

    const wrong = await settings(jar, {
      action: 'change-password',
      currentPassword: 'not-the-password',
      newPassword: 'a-brand-new-password',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({
      message: settingsMessages.currentPasswordWrong,
      errors: [{ field: 'currentPassword', message: settingsMessages.currentPasswordWrong }],
    });
    const short = await settings(jar, {
      action: 'change-password',
      currentPassword: 'correct-horse-battery',
      newPassword: 'short',
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().errors).toEqual([
      { field: 'newPassword', message: signupMessages.passwordTooShort },
    ]);

    const ok = await settings(jar, {
      action: 'change-password',
      currentPassword: 'correct-horse-battery',
      newPassword: 'a-brand-new-password',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ ok: true });
    // This session goes on; the other device is signed out.
    expect((await settings(jar, { action: 'get-settings' })).statusCode).toBe(200);
    const me = (cookies: CookieJar) =>
      t.app.inject({ method: 'GET', url: '/api/me', headers: cookies.headers() });
    expect((await me(otherDevice)).statusCode).toBe(401);

    const logIn = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { identifier: user.email, password },
        remoteAddress: '10.9.9.9',
      });
    expect((await logIn('correct-horse-battery')).statusCode).toBe(401);
    expect((await logIn('a-brand-new-password')).statusCode).toBe(200);
  });

  it('says an account without a password has none, and refuses to change it', async () => {
    const user = await insertTestUser(t.db);
    const { jar } = await logInAs(t.app, user.email!);
    // As a Google-only account: signed in, no password stored.
    await t.db.update(users).set({ passwordHash: null }).where(eq(users.id, user.id));
    expect((await settings(jar, { action: 'get-settings' })).json().hasPassword).toBe(false);
    const res = await settings(jar, {
      action: 'change-password',
      currentPassword: 'anything-at-all',
      newPassword: 'a-brand-new-password',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { field: 'currentPassword', message: settingsMessages.currentPasswordWrong },
    ]);
  });

  it('stops guessing the current password after the log-in limit', async () => {
    const user = await insertTestUser(t.db);
    const { jar } = await logInAs(t.app, user.email!);
    const guess = () =>
      settings(jar, {
        action: 'change-password',
        currentPassword: 'guess-guess',
        newPassword: 'a-brand-new-password',
      });
    const statuses: number[] = [];
    for (let i = 0; i < signInLimits.perAccountAtAddress.waitAfter; i++)
      statuses.push((await guess()).statusCode);
    expect(statuses.every((s) => s === 400)).toBe(true);
    expect((await guess()).statusCode).toBe(429);
  });

  it('saves notification preferences in the user’s attributes, keeping the other keys', async () => {
    const user = await insertTestUser(t.db, { attributes: { sidebarExpanded: false } });
    const { jar } = await logInAs(t.app, user.email!);
    const preferences = { bookings: false, payments: true, announcements: false };
    const res = await settings(jar, {
      action: 'update-notification-preferences',
      notificationPreferences: preferences,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(preferences);
    expect(
      (await settings(jar, { action: 'get-settings' })).json().notificationPreferences,
    ).toEqual(preferences);
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.attributes).toMatchObject({
      sidebarExpanded: false,
      notificationPreferences: preferences,
    });

    const bad = await settings(jar, {
      action: 'update-notification-preferences',
      notificationPreferences: { bookings: 'yes' },
    });
    expect(bad.statusCode).toBe(400);
  });
});
