import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardianLinks, memberships, sessions } from '@platform/schema/db';
import {
  addMembership,
  insertTestOrg,
  insertTestUser,
  logInAs,
  TEST_PASSWORD,
} from '../testing/auth-fixtures.ts';
import type { CookieJar } from '../testing/cookie-jar.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

type Me = { id: string; view: string; allowReturnTo: { id: string; name: string } | null };

/**
 * A session switched into someone else's account — a guardian or an admin at the keyboard —
 * attacked the way a review did against a running server (issue 11: A1, A1b, A4a, A4b). The
 * person at the keyboard stays on record through every hop; each onward switch, and each new
 * power over a third person, is theirs to have; a return lands only on their own session; and a
 * switched session never decides as the account's owner nor acts as staff.
 */
describe.each(testDatabaseKinds)('switched sessions, on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const inject = (
    jar: CookieJar,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url, headers: jar.headers(), ...(payload ? { payload } : {}) });
  const guardians = (jar: CookieJar, payload: object) =>
    inject(jar, 'POST', '/api/guardians', payload);
  const createAccount = (jar: CookieJar, payload: object) =>
    inject(jar, 'POST', '/api/auth/create-account', payload);
  /** The switch form; the jar follows the session on success. */
  const switchInto = async (
    jar: CookieJar,
    userId: string,
    fields: Record<string, string> = {},
  ) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { ...jar.headers(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        impersonate: userId,
        redirectTo: '/dashboard',
        ...fields,
      }).toString(),
    });
    jar.store(res);
    return res.statusCode;
  };
  const me = async (jar: CookieJar) => {
    const res = await inject(jar, 'GET', '/api/me');
    return { status: res.statusCode, body: res.statusCode === 200 ? res.json<Me>() : null };
  };

  /** An adult who signs in by themself; `jar` is a session of their own. */
  const adult = async (firstName: string) => {
    const user = await insertTestUser(t.db, { firstName, lastName: 'Test' });
    const ownSession = async () => (await logInAs(t.app, user.email!)).jar;
    return { ...user, email: user.email!, jar: await ownSession(), ownSession };
  };
  /** `owner`, in their own session, makes `guardian` their guardian (confirmed at once). */
  const makeGuardian = async (
    owner: { id: string; jar: CookieJar },
    guardian: { email: string },
  ) => {
    const added = await guardians(owner.jar, {
      action: 'add-guardian',
      userId: owner.id,
      signupDto: { email: guardian.email, firstName: 'Typed', lastName: 'Guardian' },
      skipResetPasswordMail: true,
    });
    expect(added.json()).toMatchObject({ awaitingConfirmation: false });
  };
  /** A child without an email, made by `parent` in their own session. */
  const childOf = async (parent: { id: string; jar: CookieJar }, firstName: string) => {
    const made = await createAccount(parent.jar, {
      action: 'create-children',
      guardianUserId: parent.id,
      signupDtos: [{ firstName, lastName: 'Kid' }],
    });
    expect(made.statusCode).toBe(200);
    return made.json<Array<{ id: string }>>()[0]!.id;
  };
  /** Cat made Gus her guardian; Gus, at the keyboard, has switched into Cat (`asCat`). */
  const gusInsideCat = async () => {
    const gus = await adult('Gus');
    const cat = await adult('Cat');
    await makeGuardian(cat, gus);
    const asCat = await gus.ownSession();
    expect(await switchInto(asCat, cat.id)).toBe(303);
    expect((await me(asCat)).body).toMatchObject({ id: cat.id, allowReturnTo: { id: gus.id } });
    return { gus, cat, asCat };
  };
  const linkExists = async (guardianUserId: string, childUserId: string) =>
    (
      await t.db
        .select()
        .from(guardianLinks)
        .where(
          and(
            eq(guardianLinks.guardianUserId, guardianUserId),
            eq(guardianLinks.childUserId, childUserId),
          ),
        )
    ).length === 1;

  describe('the person at the keyboard stays on record (A1, A1b)', () => {
    it('decides an onward switch for the person at the keyboard, not for the account', async () => {
      const { cat, asCat } = await gusInsideCat();
      // As Cat, Gus makes Cat a child without an email (a guardian manages Cat's family)...
      const dee = await childOf({ id: cat.id, jar: asCat }, 'Dee');
      // ...but Dee is Cat's child, not Gus's: Gus cannot go on into her.
      expect(await switchInto(asCat, dee)).toBe(403);
      expect((await me(asCat)).body).toMatchObject({ id: cat.id });
      // Cat herself can.
      expect(await switchInto(cat.jar, dee)).toBe(303);
    });

    it('returns only to the keyboard person’s own session: G → C → D → C is still G acting for C', async () => {
      const { gus, cat, asCat } = await gusInsideCat();
      const dee = await childOf(cat, 'Dee');
      // Cat also makes Gus a guardian of Dee, so the chain itself is allowed.
      const added = await guardians(cat.jar, {
        action: 'add-guardian',
        userId: dee,
        signupDto: { email: gus.email, firstName: 'Gus', lastName: 'Test' },
        skipResetPasswordMail: true,
      });
      expect(added.json()).toMatchObject({ awaitingConfirmation: false });
      expect(await switchInto(asCat, dee)).toBe(303);
      expect((await me(asCat)).body).toMatchObject({ id: dee, allowReturnTo: { id: gus.id } });
      // "Back" to Cat: still Gus's switched session, never an own session of Cat.
      expect(await switchInto(asCat, cat.id)).toBe(303);
      expect((await me(asCat)).body).toMatchObject({ id: cat.id, allowReturnTo: { id: gus.id } });
      // So Gus cannot decide as Cat: a stranger's request stays hers to answer.
      const stranger = await adult('Hal');
      const request = await createAccount(stranger.jar, {
        action: 'create-children',
        guardianUserId: stranger.id,
        signupDtos: [{ firstName: 'Cat', lastName: 'Test', email: cat.email }],
      });
      expect(request.json()).toMatchObject([{ awaitingConfirmation: true }]);
      const confirm = await guardians(asCat, {
        action: 'confirm-guardian',
        userId: cat.id,
        guardianUserId: stranger.id,
      });
      expect(confirm.statusCode).toBe(403);
      expect(await switchInto(stranger.jar, cat.id)).toBe(403);
      // And when Cat removes Gus, his session in her account ends.
      const removed = await guardians(cat.jar, {
        action: 'remove-guardian',
        userId: cat.id,
        guardianUserId: gus.id,
      });
      expect(removed.json()).toEqual({ success: true });
      expect((await me(asCat)).status).toBe(401);
    });

    it('returns to the keyboard person as their own session', async () => {
      const { gus, asCat } = await gusInsideCat();
      expect(await switchInto(asCat, gus.id)).toBe(303);
      expect((await me(asCat)).body).toMatchObject({ id: gus.id, allowReturnTo: null });
    });

    it('ends a session deep in a chain when the keyboard person’s own link to its account goes', async () => {
      const { gus, cat, asCat } = await gusInsideCat();
      const dee = await childOf(cat, 'Dee');
      await guardians(cat.jar, {
        action: 'add-guardian',
        userId: dee,
        signupDto: { email: gus.email, firstName: 'Gus', lastName: 'Test' },
        skipResetPasswordMail: true,
      });
      expect(await switchInto(asCat, dee)).toBe(303);
      // Cat takes Gus off Dee (she manages her child's guardians): Gus is out of Dee at once,
      // although Cat — the account he came through — is still Dee's guardian.
      const removed = await guardians(cat.jar, {
        action: 'remove-guardian',
        userId: dee,
        guardianUserId: gus.id,
      });
      expect(removed.json()).toEqual({ success: true });
      expect((await me(asCat)).status).toBe(401);
    });

    it('gives a switched session no power over third people that its keyboard person lacks', async () => {
      const { cat, asCat } = await gusInsideCat();
      const dee = await childOf(cat, 'Dee');
      const puppet = await adult('Pup');
      // Gus, as Cat, tries to make an account of his own Dee's guardian (confirmed at once, as
      // Dee has no email) — a foothold in Dee that outlives his link to Cat.
      const add = await guardians(asCat, {
        action: 'add-guardian',
        userId: dee,
        signupDto: { email: puppet.email, firstName: 'Pup', lastName: 'Pet' },
        skipResetPasswordMail: true,
      });
      expect(add.statusCode).toBe(404);
      const grandchild = await createAccount(asCat, {
        action: 'create-children',
        guardianUserId: dee,
        signupDtos: [{ firstName: 'Grand', lastName: 'Kid' }],
      });
      expect(grandchild.statusCode).toBe(404);
      expect(await linkExists(puppet.id, dee)).toBe(false);
      expect(await switchInto(puppet.jar, dee)).toBe(403);
      // Reading Cat's family, and acting on Cat's own, still work: he acts for Cat.
      expect((await guardians(asCat, { action: 'get-guardians', userId: dee })).statusCode).toBe(
        200,
      );
      expect(
        (await guardians(asCat, { action: 'get-guardians-of', guardianUserId: cat.id })).json(),
      ).toEqual([expect.objectContaining({ id: dee })]);
    });

    it('keeps a platform admin on record through every hop, and returns them to their own session', async () => {
      const admin = await insertTestUser(t.db, {
        firstName: 'Ada',
        lastName: 'Admin',
        role: 'admin',
      });
      const gus = await adult('Gus');
      const kid = await childOf(gus, 'Kit');
      const { jar } = await logInAs(t.app, admin.email!);
      expect(await switchInto(jar, gus.id)).toBe(303);
      expect((await me(jar)).body).toMatchObject({ id: gus.id, allowReturnTo: { id: admin.id } });
      expect(await switchInto(jar, kid)).toBe(303);
      expect((await me(jar)).body).toMatchObject({ id: kid, allowReturnTo: { id: admin.id } });
      const [row] = await t.db
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, kid), isNull(sessions.revokedAt)));
      expect(row).toMatchObject({ returnToUserId: admin.id, impersonatorUserId: admin.id });
      // The admin may go anywhere, and back to themself only as themself.
      expect(await switchInto(jar, gus.id)).toBe(303);
      expect((await me(jar)).body).toMatchObject({ id: gus.id, allowReturnTo: { id: admin.id } });
      expect(await switchInto(jar, admin.id)).toBe(303);
      expect((await me(jar)).body).toMatchObject({ id: admin.id, allowReturnTo: null });
    });
  });

  describe('owner decisions stay with the owner (A4a)', () => {
    it('lets only the owner remove their guardians: not a guardian, switched in or not', async () => {
      const { gus, cat, asCat } = await gusInsideCat();
      const hal = await adult('Hal');
      await makeGuardian(cat, hal);
      const asOwner = { action: 'remove-guardian', userId: cat.id, guardianUserId: hal.id };
      const switched = await guardians(asCat, asOwner);
      expect(switched.statusCode).toBe(403);
      const fromOwnSession = await guardians(await gus.ownSession(), asOwner);
      expect(fromOwnSession.statusCode).toBe(403);
      expect(await linkExists(hal.id, cat.id)).toBe(true);
      // The keyboard person may always withdraw their own link (and so leave the account).
      const withdraw = await guardians(asCat, {
        action: 'remove-guardian',
        userId: cat.id,
        guardianUserId: gus.id,
      });
      expect(withdraw.json()).toEqual({ success: true });
      expect((await me(asCat)).status).toBe(401);
      // The owner decides.
      expect((await guardians(cat.jar, asOwner)).json()).toEqual({ success: true });
      expect(await linkExists(hal.id, cat.id)).toBe(false);
    });

    it('lets a guardian remove a co-guardian of a child without an email (the family’s account)', async () => {
      const gus = await adult('Gus');
      const hal = await adult('Hal');
      const kid = await childOf(gus, 'Kit');
      await guardians(gus.jar, {
        action: 'add-guardian',
        userId: kid,
        signupDto: { email: hal.email, firstName: 'Hal', lastName: 'Test' },
        skipResetPasswordMail: true,
      });
      const asKid = await gus.ownSession();
      expect(await switchInto(asKid, kid)).toBe(303);
      const removed = await guardians(asKid, {
        action: 'remove-guardian',
        userId: kid,
        guardianUserId: hal.id,
      });
      expect(removed.json()).toEqual({ success: true });
    });

    it('refuses the owner’s password and kiosk PIN to a switched session', async () => {
      const { cat, asCat } = await gusInsideCat();
      // Every test account shares one password: the switched guardian "knows" Cat's.
      const password = await inject(asCat, 'POST', '/api/settings', {
        action: 'change-password',
        currentPassword: TEST_PASSWORD,
        newPassword: 'taken-over-password-1',
      });
      expect(password.statusCode).toBe(403);
      await logInAs(t.app, cat.email); // Cat's own password still works
      expect((await inject(asCat, 'PUT', '/api/kiosk/pin', { pin: '4321' })).statusCode).toBe(403);
      expect((await inject(asCat, 'DELETE', '/api/kiosk/pin')).statusCode).toBe(403);
      // Reading and acting for Cat still work.
      expect(
        (await inject(asCat, 'POST', '/api/settings', { action: 'get-settings' })).statusCode,
      ).toBe(200);
    });
  });

  describe('a switched guardian never acts as staff (A4b)', () => {
    it('refuses to create an organisation for the account', async () => {
      const { cat, asCat } = await gusInsideCat();
      const created = await inject(asCat, 'POST', '/api/organizations', {
        companyName: 'Gus made this for Cat',
      });
      expect(created.statusCode).toBe(403);
      expect(
        await t.db
          .select()
          .from(memberships)
          .where(and(eq(memberships.userId, cat.id), eq(memberships.kind, 'staff'))),
      ).toEqual([]);
      // Cat herself may.
      expect(
        (await inject(cat.jar, 'POST', '/api/organizations', { companyName: 'Cat’s own' }))
          .statusCode,
      ).toBe(201);
    });

    it('ends the switched session once the account is anyone’s staff', async () => {
      const { cat, asCat } = await gusInsideCat();
      const org = await insertTestOrg(t.db);
      await addMembership(t.db, cat.id, org.id, 'staff');
      expect((await me(asCat)).status).toBe(401);
    });

    it('ends a guardian’s switched session that is in the staff view', async () => {
      const { cat, asCat } = await gusInsideCat();
      const org = await insertTestOrg(t.db);
      // A switched session that reached the staff view before this rule existed.
      await t.db
        .update(sessions)
        .set({ view: 'org', orgId: org.id })
        .where(and(eq(sessions.userId, cat.id), isNull(sessions.revokedAt)));
      expect((await me(asCat)).status).toBe(401);
    });

    it('keeps an admin’s switch into a staff member working, staff view included', async () => {
      const admin = await insertTestUser(t.db, {
        firstName: 'Ada',
        lastName: 'Admin',
        role: 'admin',
      });
      const org = await insertTestOrg(t.db);
      const staffer = await insertTestUser(t.db, { firstName: 'Sam', lastName: 'Staff' });
      await addMembership(t.db, staffer.id, org.id, 'staff');
      await addMembership(t.db, staffer.id, (await insertTestOrg(t.db)).id, 'customer');
      const { jar } = await logInAs(t.app, admin.email!);
      expect(
        await switchInto(jar, staffer.id, { profileType: 'use-org', profileOrgId: org.id }),
      ).toBe(303);
      expect((await me(jar)).body).toMatchObject({ id: staffer.id, view: 'org' });
      expect(await switchInto(jar, staffer.id, { profileType: 'use-customer' })).toBe(303);
      expect(
        await switchInto(jar, staffer.id, { profileType: 'use-org', profileOrgId: org.id }),
      ).toBe(303);
      expect((await me(jar)).body).toMatchObject({
        id: staffer.id,
        view: 'org',
        allowReturnTo: { id: admin.id },
      });
      expect((await inject(jar, 'GET', '/api/crm/customers')).statusCode).toBe(200);
    });
  });
});
