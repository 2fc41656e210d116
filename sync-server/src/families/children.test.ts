import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { childMessages, signupMessages } from '@platform/schema/auth/auth.messages';
import { guardianLinks, users } from '@platform/schema/db';
import { familyMessages, guardianMessages } from '@platform/schema/families/families.messages';
import {
  addMembership,
  insertTestUser,
  linkChild,
  logInAs,
  uniqueEmail,
} from '../testing/auth-fixtures.ts';
import type { CookieJar } from '../testing/cookie-jar.ts';
import { insertRosterItem, waitForVisibility } from '../testing/sync-fixtures.ts';
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

describe.each(testDatabaseKinds)(
  'family actions of POST /api/auth/create-account on %s',
  (kind) => {
    let t: Awaited<ReturnType<typeof createTestApp>>;
    let calls: ReturnType<typeof familyCalls>;
    let f: Awaited<ReturnType<typeof seedFamilies>>;
    const createAccount = (jar: CookieJar | null, payload: object) =>
      calls.createAccount(jar, payload);
    const validate = (payload: object) =>
      createAccount(null, { action: 'validate-child', ...payload });
    const createChildren = (
      jar: CookieJar | null,
      guardianUserId: string,
      signupDtos: object[],
      extra = {},
    ) => createAccount(jar, { action: 'create-children', guardianUserId, signupDtos, ...extra });
    const attach = (jar: CookieJar | null, guardianUserId: string, childUserId: string) =>
      createAccount(jar, { action: 'attach-child-to-guardian', guardianUserId, childUserId });
    const childrenOf = async (guardianUserId: string) =>
      (
        await t.db
          .select()
          .from(guardianLinks)
          .where(eq(guardianLinks.guardianUserId, guardianUserId))
      ).map((link) => link.childUserId);

    beforeAll(async () => {
      t = await createTestApp(kind);
      calls = familyCalls(t.app);
    });
    afterAll(() => t.close());
    beforeEach(async () => {
      f = await seedFamilies(t.app, t.db);
    });

    describe('validate-child (public: the signup page asks before an account exists)', () => {
      it('answers success for valid children, with or without an email', async () => {
        const res = await validate({
          guardianEmail: uniqueEmail('new-parent'),
          children: [
            { firstName: 'Ada', lastName: 'Lee', email: uniqueEmail('ada') },
            { firstName: 'Bo', lastName: 'Lee', email: '' },
            { firstName: 'Cy', lastName: 'Lee' },
          ],
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({
          success: true,
          message: familyMessages.childrenValid,
          errors: [],
        });
      });

      it('names each broken rule of spec §5 Child by its row', async () => {
        const guardianEmail = uniqueEmail('new-parent');
        const repeated = uniqueEmail('twin');
        const res = await validate({
          guardianEmail,
          children: [
            { firstName: 'Ada', lastName: 'Lee', email: 'nope' },
            { firstName: '', lastName: 'Lee' },
            { firstName: 'Cy', lastName: ' ' },
            { firstName: 'Di', lastName: 'Lee', email: f.child.email!.toUpperCase() },
            { firstName: 'Ed', lastName: 'Lee', email: repeated },
            { firstName: 'Fi', lastName: 'Lee', email: repeated },
            { firstName: 'Gu', lastName: 'Lee', email: guardianEmail },
          ],
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({
          success: false,
          message: familyMessages.formInvalid,
          errors: [
            { field: 'children.0.email', message: 'Invalid email address' },
            { field: 'children.1.firstName', message: 'First name is required' },
            { field: 'children.2.lastName', message: 'Last name is required' },
            // children.3 has an account already: that is not said (decision 0035).
            { field: 'children.5.email', message: familyMessages.childEmailRepeated },
            { field: 'children.6.email', message: familyMessages.childEmailIsGuardians },
          ],
        });
        // The spec's texts, to the letter.
        expect([
          childMessages.invalidEmail,
          childMessages.firstNameRequired,
          childMessages.lastNameRequired,
        ]).toEqual(['Invalid email address', 'First name is required', 'Last name is required']);
      });

      it("checks the guardian's address only when the guardian is new", async () => {
        const children = [{ firstName: 'Ada', lastName: 'Lee' }];
        const newGuardian = await validate({ guardianEmail: 'not-an-email', children });
        expect(newGuardian.json()).toMatchObject({
          success: false,
          errors: [{ field: 'guardianEmail', message: signupMessages.invalidEmail }],
        });
        const existing = await validate({
          guardianEmail: '',
          children,
          validateChildrenOnly: true,
        });
        expect(existing.json()).toMatchObject({ success: true });
      });

      it('refuses a malformed request with 400', async () => {
        const res = await validate({ guardianEmail: 'a@b.test', children: 'many' });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({
          message: familyMessages.formInvalid,
          errors: [{ field: 'children' }],
        });
        expect((await validate({ children: [] })).statusCode).toBe(400);
        const tooMany = Array.from({ length: 51 }, () => ({ firstName: 'A', lastName: 'B' }));
        expect((await validate({ children: tooMany })).statusCode).toBe(400);
      });
    });

    describe('create-children', () => {
      it('creates a customer’s children, links them, enrols them, and emails the one with an address', async () => {
        const email = uniqueEmail('Teen').toUpperCase();
        const res = await createChildren(f.parent.jar, f.parent.id, [
          { firstName: 'Tess', lastName: 'Parent', email },
          { firstName: 'Tot', lastName: 'Parent', email: '' },
        ]);
        expect(res.statusCode).toBe(200);
        const created = res.json<Array<{ id: string }>>();
        expect(created).toEqual([
          {
            id: expect.any(String),
            firstName: 'Tess',
            lastName: 'Parent',
            email: email.toLowerCase(),
            // Tess owns her address: Pat acts for her once she confirms Pat (decision 0035).
            awaitingConfirmation: true,
          },
          {
            id: expect.any(String),
            firstName: 'Tot',
            lastName: 'Parent',
            email: null,
            awaitingConfirmation: false,
          },
        ]);
        const ids = created.map((c) => c.id);
        const accounts = await t.db.select().from(users).where(inArray(users.id, ids));
        expect(accounts.map((a) => a.passwordHash)).toEqual([null, null]);
        expect(await childrenOf(f.parent.id)).toEqual(expect.arrayContaining([f.child.id, ...ids]));
        for (const id of ids) {
          expect(await enrolmentOf(t.db, id)).toEqual({
            customerOf: [f.org.id],
            rosterOrgs: [f.org.id],
          });
          expect(await auditOf(t.db, id)).toMatchObject([
            {
              action: 'family.create-child',
              actorUserId: f.parent.id,
              orgId: f.org.id,
              detail: { guardianUserId: f.parent.id },
            },
          ]);
        }
        const [mail, ...more] = await mailsTo(t.db, email.toLowerCase());
        expect(more).toEqual([]);
        expect(mail).toMatchObject({
          subject: 'An account has been created for you',
          orgId: f.org.id,
        });
        expect(mail!.textBody).toContain('Hello Tess,');
        expect(mail!.textBody).toContain(
          'Pat Parent, your parent/guardian, created an account for you at Peak Gym.',
        );
        expect(mail!.textBody).toContain(
          `http://localhost:3000/auth/reset-password?token=${tokenIn(mail!.textBody)}`,
        );

        // The guardian sees them in their list.
        const list = await calls.guardians(f.parent.jar, {
          action: 'get-guardians-of',
          guardianUserId: f.parent.id,
        });
        expect(list.json()).toEqual([member(f.child), ...created]);
      });

      it('keeps a child’s date of birth for the age the guardian and staff see (issue 14)', async () => {
        const res = await createChildren(f.parent.jar, f.parent.id, [
          { firstName: 'Dana', lastName: 'Parent', dateOfBirth: '2017-05-04' },
          { firstName: 'Eli', lastName: 'Parent', dateOfBirth: '' },
        ]);
        expect(res.statusCode).toBe(200);
        const [dana, eli] = res.json<Array<{ id: string; dateOfBirth?: string }>>();
        expect(dana?.dateOfBirth).toBe('2017-05-04');
        expect(eli?.dateOfBirth).toBeUndefined();
        const [row] = await t.db.select().from(users).where(eq(users.id, dana!.id));
        expect(row?.dateOfBirth).toBe('2017-05-04');
        const list = await calls.guardians(f.parent.jar, {
          action: 'get-guardians-of',
          guardianUserId: f.parent.id,
        });
        expect(list.json()).toContainEqual(expect.objectContaining({ id: dana!.id, dateOfBirth: '2017-05-04' }));

        const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
        const refused = await createChildren(f.parent.jar, f.parent.id, [
          { firstName: 'Future', lastName: 'Parent', dateOfBirth: tomorrow },
          { firstName: 'Old', lastName: 'Parent', dateOfBirth: '1890-01-01' },
          { firstName: 'Odd', lastName: 'Parent', dateOfBirth: '2017-02-30' },
        ]);
        expect(refused.statusCode).toBe(400);
        expect(refused.json().errors).toEqual([
          { field: 'signupDtos.0.dateOfBirth', message: familyMessages.dateOfBirthInFuture },
          { field: 'signupDtos.1.dateOfBirth', message: familyMessages.dateOfBirthTooLongAgo },
          { field: 'signupDtos.2.dateOfBirth', message: familyMessages.dateOfBirthInvalid },
        ]);
      });

      it('sends nothing with skipResetPasswordMail', async () => {
        const email = uniqueEmail('quiet-kid');
        const res = await createChildren(
          f.parent.jar,
          f.parent.id,
          [{ firstName: 'Q', lastName: 'P', email }],
          {
            skipResetPasswordMail: true,
          },
        );
        expect(res.statusCode).toBe(200);
        expect(await mailsTo(t.db, email)).toEqual([]);
      });

      it('creates nothing when one child is invalid, and lists every error', async () => {
        const fine = uniqueEmail('fine');
        const res = await createChildren(f.parent.jar, f.parent.id, [
          { firstName: 'Fine', lastName: 'Parent', email: fine },
          { firstName: 'Half', lastName: '' },
          { firstName: 'Dup', lastName: 'Parent', email: f.parent.email },
          { firstName: 'Taken', lastName: 'Parent', email: f.otherParent.email },
        ]);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({
          message: 'The form is invalid',
          errors: [
            { field: 'signupDtos.1.lastName', message: 'Last name is required' },
            { field: 'signupDtos.2.email', message: familyMessages.childEmailIsGuardians },
          ],
        });
        expect(await t.db.select().from(users).where(eq(users.email, fine))).toEqual([]);
        expect(await childrenOf(f.parent.id)).toEqual([f.child.id]);
        expect(await mailsTo(t.db, fine)).toEqual([]);
      });

      it('lets staff create children for a customer their organisation made (the link records it)', async () => {
        const guardian = await insertTestUser(t.db, {
          firstName: 'Una',
          lastName: 'Other',
          withPassword: false,
          createdByOrgId: f.org.id,
        });
        await addMembership(t.db, guardian.id, f.org.id, 'customer');
        const res = await createChildren(f.manager.jar, guardian.id, [
          { firstName: 'Nia', lastName: 'Other' },
        ]);
        expect(res.statusCode).toBe(200);
        const [nia] = res.json<Array<{ id: string }>>();
        const [link] = await t.db
          .select()
          .from(guardianLinks)
          .where(eq(guardianLinks.childUserId, nia!.id));
        expect(link).toMatchObject({ guardianUserId: guardian.id, orgId: f.org.id });
        expect(link!.confirmedAt).not.toBeNull();
        const [account] = await t.db.select().from(users).where(eq(users.id, nia!.id));
        expect(account).toMatchObject({ createdByOrgId: f.org.id, claimedAt: null });
        expect(await enrolmentOf(t.db, nia!.id)).toEqual({
          customerOf: [f.org.id],
          rosterOrgs: [f.org.id],
        });
        expect(await auditOf(t.db, nia!.id)).toMatchObject([
          { actorUserId: f.manager.id, detail: { as: 'staff' } },
        ]);
      });

      it('never lets staff add children to a customer who signs in by themself (403)', async () => {
        const res = await createChildren(f.manager.jar, f.otherParent.id, [
          { firstName: 'Nia', lastName: 'Other' },
        ]);
        expect(res.statusCode).toBe(403);
        expect(res.json().message).toBe(familyMessages.signsInThemselves);
        expect(await childrenOf(f.otherParent.id)).toEqual([f.otherChild.id]);
      });

      it('turns an address that has an account into a request its owner confirms, answered as typed', async () => {
        const owner = await insertTestUser(t.db, { firstName: 'Real', lastName: 'Owner' });
        const res = await createChildren(f.parent.jar, f.parent.id, [
          { firstName: 'Typed', lastName: 'Kid', email: owner.email!.toUpperCase() },
        ]);
        expect(res.statusCode).toBe(200);
        // The same answer a new address gets: nothing about the account behind it.
        expect(res.json()).toEqual([
          {
            id: owner.id,
            firstName: 'Typed',
            lastName: 'Kid',
            email: owner.email,
            awaitingConfirmation: true,
          },
        ]);
        expect(await t.db.select().from(users).where(eq(users.email, owner.email!))).toHaveLength(
          1,
        );
        expect(await enrolmentOf(t.db, owner.id)).toEqual({ customerOf: [], rosterOrgs: [] });
        // The guardian's list shows the typed names until the owner confirms.
        const list = async () =>
          (
            await calls.guardians(f.parent.jar, {
              action: 'get-guardians-of',
              guardianUserId: f.parent.id,
            })
          ).json();
        expect(await list()).toEqual([
          member(f.child),
          {
            id: owner.id,
            firstName: 'Typed',
            lastName: 'Kid',
            email: owner.email,
            awaitingConfirmation: true,
          },
        ]);
        const [mail, ...more] = await mailsTo(t.db, owner.email!);
        expect(more).toEqual([]);
        expect(mail!.subject).toBe('Confirm your parent/guardian');
        expect(mail!.textBody).toContain('Pat Parent added this email address as their child');
        expect(mail!.textBody).not.toMatch(/reset-password/);
        // The owner confirms in their own session; then the guardian sees them as they are.
        const { jar } = await logInAs(t.app, owner.email!);
        const confirm = await calls.guardians(jar, {
          action: 'confirm-guardian',
          userId: owner.id,
          guardianUserId: f.parent.id,
        });
        expect(confirm.json()).toEqual({ success: true });
        expect(await list()).toEqual([member(f.child), member(owner)]);
      });

      it('walls: no session 401, another family 404, another organisation 404, no view-customers 403', async () => {
        const kid = [{ firstName: 'Kid', lastName: 'Nobody' }];
        expect((await createChildren(null, f.parent.id, kid)).statusCode).toBe(401);
        expect((await createChildren(f.parent.jar, f.otherParent.id, kid)).statusCode).toBe(404);
        expect((await createChildren(f.manager.jar, f.stranger.id, kid)).statusCode).toBe(404);
        const clerk = await createChildren(f.clerk.jar, f.parent.id, kid);
        expect(clerk.statusCode).toBe(403);
        expect(clerk.json().message).toBe(familyMessages.notAllowed);
        expect(await childrenOf(f.otherParent.id)).toEqual([f.otherChild.id]);
        expect(await childrenOf(f.stranger.id)).toEqual([]);
      });
    });

    describe('attach-child-to-guardian', () => {
      it('lets staff attach an existing customer account as a child', async () => {
        const res = await attach(f.manager.jar, f.parent.id, f.otherChild.id);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ success: true });
        const links = await t.db
          .select()
          .from(guardianLinks)
          .where(eq(guardianLinks.childUserId, f.otherChild.id));
        expect(links).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ guardianUserId: f.parent.id, orgId: f.org.id }),
          ]),
        );
        expect(await auditOf(t.db, f.otherChild.id)).toMatchObject([
          {
            action: 'family.attach-child',
            actorUserId: f.manager.id,
            detail: { guardianUserId: f.parent.id },
          },
        ]);
        // Again: already linked, the same answer, nothing new.
        expect((await attach(f.manager.jar, f.parent.id, f.otherChild.id)).json()).toEqual({
          success: true,
        });
        expect(await auditOf(t.db, f.otherChild.id)).toHaveLength(1);
      });

      it("re-stamps the child's roster items, so the guardian's next pull brings them", async () => {
        // Guardian and child are customers of a second organisation too, with old roster items
        // there; the link is made by the first organisation's staff.
        const guardian = await insertTestUser(t.db, { firstName: 'Gwen', lastName: 'Guard' });
        const child = await insertTestUser(t.db, {
          firstName: 'Cal',
          lastName: 'Guard',
          // No email: the link counts at once (with one, Cal would confirm it first).
          email: null,
          withPassword: false,
          createdByOrgId: f.org.id,
        });
        // The child's item is older than the guardian's: the guardian's first pull passes it.
        for (const person of [child, guardian]) {
          await addMembership(t.db, person.id, f.org.id, 'customer');
          await addMembership(t.db, person.id, f.otherOrg.id, 'customer');
          await insertRosterItem(t.db, f.otherOrg.id, person);
        }
        const { jar } = await logInAs(t.app, guardian.email!, {
          profileType: 'use-customer',
          profileOrgId: f.otherOrg.id,
        });
        const pull = async (query = '') => {
          await waitForVisibility(t.db);
          const res = await t.app.inject({
            method: 'GET',
            url: `/api/sync/roster/pull${query}`,
            headers: jar.headers(),
          });
          expect(res.statusCode).toBe(200);
          return res.json<{
            documents: Array<{ athlete: { id: string } }>;
            checkpoint: { id: string; lsn: number };
          }>();
        };
        const before = await pull();
        expect(before.documents.map((d) => d.athlete.id)).toEqual([guardian.id]);

        expect((await attach(f.manager.jar, guardian.id, child.id)).statusCode).toBe(200);
        const after = await pull(`?id=${before.checkpoint.id}&lsn=${before.checkpoint.lsn}`);
        expect(after.documents.map((d) => d.athlete.id)).toEqual([child.id]);
      });

      it('refuses a person as their own child, and a loop', async () => {
        const self = await attach(f.manager.jar, f.otherChild.id, f.otherChild.id);
        expect(self.statusCode).toBe(400);
        expect(self.json()).toEqual({
          message: familyMessages.formInvalid,
          errors: [{ field: 'childUserId', message: guardianMessages.ownGuardian }],
        });
        // Two accounts the organisation made: Ola's child may not become Ola's guardian.
        const olasChild = await insertTestUser(t.db, {
          firstName: 'Oli',
          lastName: 'Other',
          email: null,
          withPassword: false,
          createdByOrgId: f.org.id,
        });
        await addMembership(t.db, olasChild.id, f.org.id, 'customer');
        await linkChild(t.db, f.otherChild.id, olasChild.id, f.org.id);
        const loop = await attach(f.manager.jar, olasChild.id, f.otherChild.id);
        expect(loop.statusCode).toBe(400);
        expect(loop.json().errors).toEqual([
          { field: 'childUserId', message: familyMessages.guardianCycle },
        ]);
        expect(await childrenOf(olasChild.id)).toEqual([]);
        // An account that signs in by itself is its owner's to link (403).
        expect((await attach(f.manager.jar, f.child.id, f.parent.id)).statusCode).toBe(403);
      });

      it('walls: customers may not attach (403), nor staff without view-customers (403), nor across organisations (404)', async () => {
        const arbitrary = await insertTestUser(t.db, { firstName: 'Arbi', lastName: 'Trary' });
        const customer = await attach(f.parent.jar, f.parent.id, arbitrary.id);
        expect(customer.statusCode).toBe(403);
        expect(customer.json().message).toBe(familyMessages.notAllowed);
        expect((await attach(f.parent.jar, f.parent.id, f.otherChild.id)).statusCode).toBe(403);
        expect((await attach(f.clerk.jar, f.parent.id, f.otherChild.id)).statusCode).toBe(403);
        expect((await attach(f.manager.jar, f.parent.id, f.stranger.id)).statusCode).toBe(404);
        expect((await attach(f.manager.jar, f.parent.id, arbitrary.id)).statusCode).toBe(404);
        expect((await attach(null, f.parent.id, arbitrary.id)).statusCode).toBe(401);
        expect(await childrenOf(f.parent.id)).toEqual([f.child.id]);
      });
    });

    it('leaves signup as it was', async () => {
      const res = await createAccount(null, { action: 'signup', signupDto: { email: 'bad' } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, errorType: 'validation' });
      expect((await createAccount(null, { action: 'unknown' })).statusCode).toBe(400);
    });
  },
);
