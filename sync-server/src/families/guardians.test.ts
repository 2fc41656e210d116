import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { guardianLinks, users } from '@platform/schema/db';
import { familyMessages, guardianMessages } from '@platform/schema/families/families.messages';
import {
  addMembership,
  insertTestUser,
  linkChild,
  logInAs,
  uniqueEmail,
} from '../testing/auth-fixtures.ts';
import { CookieJar } from '../testing/cookie-jar.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import {
  auditOf,
  enrolmentOf,
  familyCalls,
  mailsTo,
  member,
  seedFamilies,
  tokenIn,
} from './families.fixtures.ts';

describe.each(testDatabaseKinds)('POST /api/guardians on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let calls: ReturnType<typeof familyCalls>;
  let f: Awaited<ReturnType<typeof seedFamilies>>;
  const guardians = (jar: CookieJar | null, payload: object) => calls.guardians(jar, payload);
  const linksOf = (childUserId: string) =>
    t.db.select().from(guardianLinks).where(eq(guardianLinks.childUserId, childUserId));

  beforeAll(async () => {
    t = await createTestApp(kind);
    calls = familyCalls(t.app);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    f = await seedFamilies(t.app, t.db);
  });

  it('lets a customer add a new guardian: an account without a password, a set-password email, the customer list', async () => {
    const email = uniqueEmail('Grandma').toUpperCase();
    expect(
      (await guardians(f.parent.jar, { action: 'get-guardians', userId: f.parent.id })).json(),
    ).toEqual([]);

    const res = await guardians(f.parent.jar, {
      action: 'add-guardian',
      userId: f.parent.id,
      signupDto: { email: ` ${email} `, firstName: ' Gina ', lastName: 'Grand' },
    });
    expect(res.statusCode).toBe(200);
    const guardian = res.json<{ id: string }>();
    expect(guardian).toEqual({
      id: expect.any(String),
      firstName: 'Gina',
      lastName: 'Grand',
      email: email.toLowerCase(),
      // The child (Pat, in her own session) made the link: it counts at once.
      awaitingConfirmation: false,
    });
    const [account] = await t.db.select().from(users).where(eq(users.id, guardian.id));
    expect(account).toMatchObject({ email: email.toLowerCase(), passwordHash: null });
    // The family made the link (org_id null); the session's organisation enrols the guardian.
    expect(await linksOf(f.parent.id)).toMatchObject([
      { guardianUserId: guardian.id, orgId: null },
    ]);
    expect(await enrolmentOf(t.db, guardian.id)).toEqual({
      customerOf: [f.org.id],
      rosterOrgs: [f.org.id],
    });
    expect(await auditOf(t.db, f.parent.id)).toMatchObject([
      {
        action: 'family.add-guardian',
        actorUserId: f.parent.id,
        orgId: f.org.id,
        detail: { guardianUserId: guardian.id, createdAccount: true, as: 'self' },
      },
    ]);

    const [mail, ...more] = await mailsTo(t.db, email.toLowerCase());
    expect(more).toEqual([]);
    expect(mail).toMatchObject({
      subject: 'You have been added as a parent/guardian',
      orgId: f.org.id,
    });
    expect(mail!.textBody).toContain('Hello Gina,');
    expect(mail!.textBody).toContain('Pat Parent added you as their parent/guardian at Peak Gym.');
    const token = tokenIn(mail!.textBody);
    expect(mail!.textBody).toContain(`http://localhost:3000/auth/reset-password?token=${token}`);
    expect(mail!.htmlBody).toContain(
      `href="http://localhost:3000/auth/reset-password?token=${token}"`,
    );
    // The link sets the password of the new account, which can then log in.
    const set = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, password: 'a-new-long-password' },
    });
    expect(set.statusCode).toBe(200);

    expect(
      (await guardians(f.parent.jar, { action: 'get-guardians', userId: f.parent.id })).json(),
    ).toEqual([guardian]);
  });

  it('links an existing account by its address (any case), once, and tells it once', async () => {
    const existing = await insertTestUser(t.db, { firstName: 'Gus', lastName: 'Grand' });
    const add = () =>
      guardians(f.parent.jar, {
        action: 'add-guardian',
        userId: f.parent.id,
        signupDto: { email: existing.email!.toUpperCase(), firstName: 'Typed', lastName: 'Name' },
      });
    // The answer repeats what was typed: nothing about the account behind the address.
    const typed = member({ ...existing, firstName: 'Typed', lastName: 'Name' });
    const first = await add();
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual(typed);
    const again = await add();
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(typed);
    expect(await linksOf(f.parent.id)).toHaveLength(1);
    expect(await auditOf(t.db, f.parent.id)).toHaveLength(1);
    // The account's owner learns of the link and where to undo it — no set-password link.
    const mails = await mailsTo(t.db, existing.email!);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('You have been added as a parent/guardian');
    expect(mails[0]!.textBody).toContain('Pat Parent added you as their parent/guardian');
    expect(mails[0]!.textBody).toContain(`/dashboard-customer/${f.org.id}/settings`);
    expect(mails[0]!.textBody).not.toMatch(/set-password|reset-password/);
  });

  it('sends no email when skipResetPasswordMail is set', async () => {
    const email = uniqueEmail('quiet');
    const res = await guardians(f.parent.jar, {
      action: 'add-guardian',
      userId: f.parent.id,
      signupDto: { email, firstName: 'Quinn', lastName: 'Quiet' },
      skipResetPasswordMail: true,
    });
    expect(res.statusCode).toBe(200);
    expect(await mailsTo(t.db, email)).toEqual([]);
  });

  it('answers each rule of spec §5 Guardian add with its text, and creates nothing', async () => {
    const add = (signupDto: object) =>
      guardians(f.parent.jar, { action: 'add-guardian', userId: f.parent.id, signupDto });
    const cases: Array<[object, string, string]> = [
      [
        { email: 'not-an-email', firstName: 'A', lastName: 'B' },
        'signupDto.email',
        guardianMessages.invalidEmail,
      ],
      [
        { email: uniqueEmail(), firstName: ' ', lastName: 'B' },
        'signupDto.firstName',
        'A first name is required',
      ],
      // spec §5: the last-name rule reuses the first-name message.
      [
        { email: uniqueEmail(), firstName: 'A', lastName: '' },
        'signupDto.lastName',
        'A first name is required',
      ],
      [
        { email: f.parent.email!.toUpperCase(), firstName: 'Me', lastName: 'Myself' },
        'signupDto.email',
        guardianMessages.ownGuardian,
      ],
      // The parent's child may not become the parent's guardian.
      [
        { email: f.child.email!, firstName: 'Casey', lastName: 'Parent' },
        'signupDto.email',
        familyMessages.guardianCycle,
      ],
    ];
    for (const [signupDto, field, message] of cases) {
      const res = await add(signupDto);
      expect(res.statusCode, message).toBe(400);
      expect(res.json()).toEqual({ message: 'The form is invalid', errors: [{ field, message }] });
    }
    expect(await linksOf(f.parent.id)).toEqual([]);
    expect(await auditOf(t.db, f.parent.id)).toEqual([]);
  });

  it('refuses a cycle through several people', async () => {
    // parent → child → grandchild: the grandchild may not become the parent's guardian.
    const grandchild = await insertTestUser(t.db, { firstName: 'Gail', lastName: 'Parent' });
    await linkChild(t.db, f.child.id, grandchild.id);
    const res = await guardians(f.parent.jar, {
      action: 'add-guardian',
      userId: f.parent.id,
      signupDto: { email: grandchild.email!, firstName: 'Gail', lastName: 'Parent' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { field: 'signupDto.email', message: familyMessages.guardianCycle },
    ]);
  });

  it('lets a guardian list their children (email may be null) and disconnect one; both accounts stay', async () => {
    const listChildren = () =>
      guardians(f.parent.jar, { action: 'get-guardians-of', guardianUserId: f.parent.id });
    expect((await listChildren()).json()).toEqual([member(f.child)]);
    const res = await guardians(f.parent.jar, {
      action: 'remove-guardian',
      userId: f.child.id,
      guardianUserId: f.parent.id,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect((await listChildren()).json()).toEqual([]);
    expect(await t.db.select().from(users).where(eq(users.id, f.child.id))).toHaveLength(1);
    expect(await auditOf(t.db, f.child.id)).toMatchObject([
      {
        action: 'family.remove-guardian',
        actorUserId: f.parent.id,
        detail: { guardianUserId: f.parent.id },
      },
    ]);
    // Again: nothing left to remove, the same answer, nothing audited.
    const again = await guardians(f.parent.jar, {
      action: 'remove-guardian',
      userId: f.child.id,
      guardianUserId: f.parent.id,
    });
    expect(again.json()).toEqual({ success: true });
    expect(await auditOf(t.db, f.child.id)).toHaveLength(1);
  });

  it('lets a child list their guardians and remove one, but not see siblings through a guardian', async () => {
    const { jar } = await logInAs(t.app, f.child.email!, {
      profileType: 'use-customer',
      profileOrgId: f.org.id,
    });
    expect((await guardians(jar, { action: 'get-guardians', userId: f.child.id })).json()).toEqual([
      member(f.parent),
    ]);
    const siblings = await guardians(jar, {
      action: 'get-guardians-of',
      guardianUserId: f.parent.id,
    });
    expect(siblings.statusCode).toBe(404);
    expect(siblings.json().message).toBe(familyMessages.notFound);
    const removed = await guardians(jar, {
      action: 'remove-guardian',
      userId: f.child.id,
      guardianUserId: f.parent.id,
    });
    expect(removed.json()).toEqual({ success: true });
    expect(await linksOf(f.child.id)).toEqual([]);
  });

  it('gives a child session (a guardian switched into it) its guardians, and no sibling data', async () => {
    const sibling = await insertTestUser(t.db, {
      firstName: 'Sam',
      lastName: 'Parent',
      email: null,
      withPassword: false,
    });
    await linkChild(t.db, f.parent.id, sibling.id);
    const switched = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { ...f.parent.jar.headers(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        impersonate: sibling.id,
        redirectTo: '/dashboard',
      }).toString(),
    });
    expect(switched.statusCode).toBe(303);
    const jar = new CookieJar().store(switched);
    expect((await guardians(jar, { action: 'get-guardians', userId: sibling.id })).json()).toEqual([
      member(f.parent),
    ]);
    expect(
      (await guardians(jar, { action: 'get-guardians-of', guardianUserId: f.parent.id }))
        .statusCode,
    ).toBe(404);
    expect((await guardians(jar, { action: 'get-guardians', userId: f.child.id })).statusCode).toBe(
      404,
    );
  });

  it('lets staff holding view-customers manage a customer family, enrolling who they add', async () => {
    const list = await guardians(f.manager.jar, { action: 'get-guardians', userId: f.child.id });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([member(f.parent)]);
    const children = await guardians(f.manager.jar, {
      action: 'get-guardians-of',
      guardianUserId: f.otherParent.id,
    });
    expect(children.json()).toEqual([member(f.otherChild)]);

    const email = uniqueEmail('aunt');
    const added = await guardians(f.manager.jar, {
      action: 'add-guardian',
      userId: f.otherChild.id,
      signupDto: { email, firstName: 'Ann', lastName: 'Aunt' },
    });
    expect(added.statusCode).toBe(200);
    const aunt = added.json<{ id: string }>();
    expect(await linksOf(f.otherChild.id)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ guardianUserId: aunt.id, orgId: f.org.id }),
      ]),
    );
    expect(await enrolmentOf(t.db, aunt.id)).toEqual({
      customerOf: [f.org.id],
      rosterOrgs: [f.org.id],
    });
    const [mail] = await mailsTo(t.db, email);
    expect(mail!.textBody).toContain(
      'Morgan Manager added you as a parent/guardian of Ola Other at Peak Gym.',
    );
    expect(await auditOf(t.db, f.otherChild.id)).toMatchObject([
      {
        action: 'family.add-guardian',
        actorUserId: f.manager.id,
        orgId: f.org.id,
        detail: { as: 'staff' },
      },
    ]);

    const removed = await guardians(f.manager.jar, {
      action: 'remove-guardian',
      userId: f.otherChild.id,
      guardianUserId: aunt.id,
    });
    expect(removed.json()).toEqual({ success: true });
    expect(
      await t.db
        .select()
        .from(guardianLinks)
        .where(
          and(
            eq(guardianLinks.childUserId, f.otherChild.id),
            eq(guardianLinks.guardianUserId, aunt.id),
          ),
        ),
    ).toEqual([]);
  });

  it('never lets staff put an account that signs in by itself under a guardian, nor reach past their customers', async () => {
    // The chain a review found: staff link an outsider as a guardian of their customer (which
    // used to enrol the outsider), then make themselves the outsider's guardian and switch in.
    const victim = await insertTestUser(t.db, { firstName: 'Vic', lastName: 'Tim', role: 'admin' });
    const step1 = await guardians(f.manager.jar, {
      action: 'add-guardian',
      userId: f.otherChild.id,
      signupDto: { email: victim.email!, firstName: 'x', lastName: 'y' },
    });
    expect(step1.statusCode).toBe(400);
    expect(step1.json().errors).toEqual([
      { field: 'signupDto.email', message: familyMessages.notYourCustomer },
    ]);
    expect(await enrolmentOf(t.db, victim.id)).toEqual({ customerOf: [], rosterOrgs: [] });
    const step2 = await guardians(f.manager.jar, {
      action: 'add-guardian',
      userId: victim.id,
      signupDto: { email: f.manager.email!, firstName: 'Morgan', lastName: 'Manager' },
    });
    expect(step2.statusCode).toBe(404);

    // A customer of the organisation who signs in by themself: staff may not give them a guardian.
    const adult = await guardians(f.manager.jar, {
      action: 'add-guardian',
      userId: f.parent.id,
      signupDto: { email: uniqueEmail('new'), firstName: 'New', lastName: 'Guardian' },
    });
    expect(adult.statusCode).toBe(403);
    expect(adult.json().message).toBe(familyMessages.signsInThemselves);
    expect(await linksOf(f.parent.id)).toEqual([]);
  });

  it('never enrols an existing account in an organisation as a side effect of being named a guardian', async () => {
    const outsider = await insertTestUser(t.db, { firstName: 'Out', lastName: 'Sider' });
    const res = await guardians(f.parent.jar, {
      action: 'add-guardian',
      userId: f.parent.id,
      signupDto: { email: outsider.email!, firstName: 'Out', lastName: 'Sider' },
    });
    expect(res.statusCode).toBe(200);
    expect(await enrolmentOf(t.db, outsider.id)).toEqual({ customerOf: [], rosterOrgs: [] });
  });

  it('shows staff only the family members who are customers of their organisation', async () => {
    const elsewhere = await insertTestUser(t.db, { firstName: 'Eve', lastName: 'Parent' });
    await addMembership(t.db, elsewhere.id, f.otherOrg.id, 'customer');
    await linkChild(t.db, f.parent.id, elsewhere.id);
    const staffView = await guardians(f.manager.jar, {
      action: 'get-guardians-of',
      guardianUserId: f.parent.id,
    });
    expect(staffView.json()).toEqual([member(f.child)]);
    const ownView = await guardians(f.parent.jar, {
      action: 'get-guardians-of',
      guardianUserId: f.parent.id,
    });
    expect(ownView.json()).toEqual([member(f.child), member(elsewhere)]);
  });

  describe('walls', () => {
    it('needs a session', async () => {
      const res = await guardians(null, { action: 'get-guardians', userId: f.parent.id });
      expect(res.statusCode).toBe(401);
      const bad = await guardians(new CookieJar(), { action: 'nonsense' });
      expect(bad.statusCode).toBe(401);
    });

    it("keeps another family's people from a customer (404, whether or not they exist)", async () => {
      const payloads = [
        { action: 'get-guardians', userId: f.otherChild.id },
        { action: 'get-guardians-of', guardianUserId: f.otherParent.id },
        { action: 'get-guardians', userId: crypto.randomUUID() },
        {
          action: 'add-guardian',
          userId: f.otherChild.id,
          signupDto: { email: uniqueEmail(), firstName: 'Evil', lastName: 'Twin' },
        },
        { action: 'remove-guardian', userId: f.otherChild.id, guardianUserId: f.otherParent.id },
      ];
      for (const payload of payloads) {
        const res = await guardians(f.parent.jar, payload);
        expect(res.statusCode, payload.action).toBe(404);
        expect(res.json().message).toBe(familyMessages.notFound);
      }
      expect(await linksOf(f.otherChild.id)).toHaveLength(1);
    });

    it("keeps another organisation's customers from staff (404)", async () => {
      for (const payload of [
        { action: 'get-guardians', userId: f.stranger.id },
        {
          action: 'add-guardian',
          userId: f.stranger.id,
          signupDto: { email: uniqueEmail(), firstName: 'Ada', lastName: 'Added' },
        },
        // The child is another organisation's customer; the guardian is theirs.
        { action: 'remove-guardian', userId: f.stranger.id, guardianUserId: f.child.id },
      ]) {
        expect((await guardians(f.manager.jar, payload)).statusCode, payload.action).toBe(404);
      }
      expect(await linksOf(f.stranger.id)).toEqual([]);
    });

    it('refuses staff without view-customers (403)', async () => {
      for (const payload of [
        { action: 'get-guardians', userId: f.child.id },
        { action: 'get-guardians-of', guardianUserId: f.parent.id },
        { action: 'remove-guardian', userId: f.child.id, guardianUserId: f.parent.id },
      ]) {
        const res = await guardians(f.clerk.jar, payload);
        expect(res.statusCode, payload.action).toBe(403);
        expect(res.json().message).toBe(familyMessages.notAllowed);
      }
      expect(await linksOf(f.child.id)).toHaveLength(1);
    });

    it('gives a platform admin no special powers here', async () => {
      const admin = await insertTestUser(t.db, { role: 'admin' });
      const { jar } = await logInAs(t.app, admin.email!);
      expect(
        (await guardians(jar, { action: 'get-guardians', userId: f.child.id })).statusCode,
      ).toBe(404);
    });
  });
});
