import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contactListMessages, type ContactList } from '@platform/schema/crm/contact-lists.zod';
import {
  contactListMembers,
  contactLists,
  exportJobs,
  importJobs,
  memberships,
  organizations,
  rosterItems,
  users,
} from '@platform/schema/db';
import type { ImportStatus } from '@platform/schema/imports/import.zod';
import type { ExportStatus } from '@platform/schema/imports/export.zod';
import { claims as allClaims } from '@platform/schema/organizations/claims';
import { collectionNames } from '@platform/schema/sync/collections';
import { rowsOf } from '../db/open-database.ts';
import { asKiosk, startTestKiosk } from '../kiosk/kiosk.fixtures.ts';
import {
  addMembership,
  insertTestUser,
  linkChild,
  logInAs,
  newOrgWithOwner,
  signedInStaff,
  switchInto,
  TEST_PASSWORD,
  switchTo,
  uniqueEmail,
} from '../testing/auth-fixtures.ts';
import { contactListCalls, contactListMemberUrl } from '../testing/contact-list-fixtures.ts';
import { CookieJar } from '../testing/cookie-jar.ts';
import { drainJobs } from '../testing/job-fixtures.ts';
import { insertRosterItem, signedInCustomer, waitForVisibility } from '../testing/sync-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

/**
 * Adversarial review of contact lists (issue 17): tenancy, who may act, members, names, races,
 * the CSV import and the export, replication. Every test asserts the SAFE behaviour through
 * real requests with real session cookies: a failing test is a finding.
 */
type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
type Answer = Awaited<ReturnType<Awaited<ReturnType<typeof createTestApp>>['app']['inject']>>;

describe.each(testDatabaseKinds)('contact lists under attack on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp(kind);
  }, 60_000);
  afterAll(() => t?.close());
  // Imports: each person may keep only three uploads open; tests start with none open.
  beforeEach(async () => {
    await t.db
      .update(importJobs)
      .set({ updatedAt: new Date(Date.now() - 2 * 60 * 60 * 1000) })
      .where(eq(importJobs.status, 'uploading'));
  });

  const headersOf = (who: CookieJar | Record<string, string> | null): Record<string, string> => {
    if (who === null) return {};
    if (typeof (who as CookieJar).headers === 'function')
      return (who as CookieJar).headers() as Record<string, string>;
    return who as Record<string, string>;
  };
  const call = (
    method: Method,
    url: string,
    who: CookieJar | Record<string, string> | null,
    payload?: object,
  ) => t.app.inject({ method, url, headers: headersOf(who), ...(payload ? { payload } : {}) });

  const create = (jar: CookieJar, name: string) => contactListCalls(t.app).create(jar, name);
  const listsOf = (jar: CookieJar) => contactListCalls(t.app).listsOf(jar);
  const membersOf = (jar: CookieJar, listId: string) =>
    contactListCalls(t.app).membersOf(jar, listId);
  const memberUrl = contactListMemberUrl;
  const memberRows = (listId: string) =>
    t.db.select().from(contactListMembers).where(eq(contactListMembers.listId, listId));
  const listRow = async (id: string) =>
    (await t.db.select().from(contactLists).where(eq(contactLists.id, id)))[0];

  /** A customer of the organisation, on its roster (as the CRM's Add customer leaves them). */
  async function customerOf(orgId: string, firstName = 'Cus', lastName = 'Tomer') {
    const email = uniqueEmail(firstName.toLowerCase().replace(/\W/g, 'x'));
    const user = await insertTestUser(t.db, { email, firstName, lastName });
    await addMembership(t.db, user.id, orgId, 'customer');
    const item = await insertRosterItem(t.db, orgId, user, {
      firstName,
      lastName,
      updatedAt: new Date(),
    });
    return { id: user.id, email, rosterId: item.id };
  }

  /** Someone already on a roster made a customer of another organisation too, by its names. */
  async function alsoCustomerOf(
    orgId: string,
    who: { id: string; email: string | null },
    firstName: string,
    lastName: string,
  ) {
    await addMembership(t.db, who.id, orgId, 'customer');
    await insertRosterItem(t.db, orgId, who, { firstName, lastName, updatedAt: new Date() });
  }

  /** Every endpoint, aimed at one list and one customer. */
  const endpointsFor = (listId: string, userId: string): Array<[Method, string, object?]> => [
    ['GET', '/api/contact-lists'],
    ['POST', '/api/contact-lists', { name: `Intruders ${randomUUID().slice(0, 6)}` }],
    ['PATCH', `/api/contact-lists/${listId}`, { name: 'Taken over' }],
    ['DELETE', `/api/contact-lists/${listId}`],
    ['GET', `/api/contact-lists/${listId}/members`],
    ['PUT', memberUrl(listId, userId)],
    ['DELETE', memberUrl(listId, userId)],
    ['GET', `/api/customers/${userId}/contact-lists`],
  ];

  /** A list of A with one member, for tests that try to reach it. */
  async function orgWithList(name = 'Members only') {
    const a = await newOrgWithOwner(t.app, t.db);
    const list = await create(a.jar, name);
    const ann = await customerOf(a.org.id, 'Ann', 'Lee');
    expect((await call('PUT', memberUrl(list.id, ann.id), a.jar)).statusCode).toBe(204);
    return { a, list, ann };
  }

  /** The list is as it was: its name, its one member, its row. */
  async function unchanged(jar: CookieJar, list: ContactList, memberId: string) {
    expect(await listRow(list.id)).toMatchObject({ name: list.name });
    const { members } = await membersOf(jar, list.id);
    expect(members.map((m) => m.userId)).toEqual([memberId]);
  }

  /** Fails unless every endpoint answers one of `statuses`. */
  async function allRefused(
    who: string,
    jar: CookieJar | Record<string, string> | null,
    listId: string,
    userId: string,
    statuses: number[],
  ) {
    for (const [method, url, payload] of endpointsFor(listId, userId)) {
      const res = await call(method, url, jar, payload);
      expect(statuses, `${who}: ${method} ${url} → ${res.statusCode} ${res.body}`).toContain(
        res.statusCode,
      );
    }
  }

  // ====================================================================== 1. tenancy

  describe('tenancy', () => {
    it('staff of another organisation (every claim) cannot read, rename, delete or change members of a list by its id', async () => {
      const { a, list, ann } = await orgWithList();
      const b = await newOrgWithOwner(t.app, t.db);
      for (const [method, url, payload] of endpointsFor(list.id, ann.id)) {
        if (url === '/api/contact-lists') continue;
        const res = await call(method, url, b.jar, payload);
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
        expect(res.body).not.toContain(list.name);
        expect(res.body).not.toContain(ann.email);
      }
      // Their list of lists does not hold A's.
      expect((await listsOf(b.jar)).map((l) => l.id)).not.toContain(list.id);
      await unchanged(a.jar, list, ann.id);
    });

    it('an upper-case spelling of a foreign list id or customer id reaches nothing either', async () => {
      const { a, list, ann } = await orgWithList();
      const b = await newOrgWithOwner(t.app, t.db);
      const upper = list.id.toUpperCase();
      for (const [method, url, payload] of endpointsFor(upper, ann.id.toUpperCase())) {
        if (url === '/api/contact-lists') continue;
        const res = await call(method, url, b.jar, payload);
        expect([400, 404], `${method} ${url}: ${res.body}`).toContain(res.statusCode);
      }
      await unchanged(a.jar, list, ann.id);
    });

    it('existence oracle: a foreign list id answers exactly as a random uuid does, on every endpoint', async () => {
      const { list, ann } = await orgWithList();
      const b = await newOrgWithOwner(t.app, t.db);
      const bOwnCustomer = await customerOf(b.org.id);
      const random = randomUUID();
      const shape = (res: Answer) => ({ status: res.statusCode, body: res.body });
      // The same customer id in both probes, so only the list id differs; then the same with
      // B's own customer and A's customer.
      for (const userId of [ann.id, bOwnCustomer.id, randomUUID()]) {
        const real = endpointsFor(list.id, userId);
        const fake = endpointsFor(random, userId);
        for (let i = 0; i < real.length; i++) {
          const [method, url, payload] = real[i]!;
          if (url === '/api/contact-lists') continue;
          const [, fakeUrl, fakePayload] = fake[i]!;
          const answerReal = shape(await call(method, url, b.jar, payload));
          const answerFake = shape(await call(method, fakeUrl, b.jar, fakePayload));
          expect(answerReal, `${method} ${url}`).toEqual(answerFake);
        }
      }
      // A's customer (on the profile path) answers as nobody does.
      const profileA = await call('GET', `/api/customers/${ann.id}/contact-lists`, b.jar);
      const profileNobody = await call(
        'GET',
        `/api/customers/${randomUUID()}/contact-lists`,
        b.jar,
      );
      expect(shape(profileA)).toEqual(shape(profileNobody));
      // An invalid body on a foreign list answers as on a random one (no 404 vs 400 split).
      for (const body of [{ name: '' }, { name: 'x'.repeat(500) }, {}]) {
        const real = await call('PATCH', `/api/contact-lists/${list.id}`, b.jar, body);
        const fake = await call('PATCH', `/api/contact-lists/${random}`, b.jar, body);
        expect(shape(real)).toEqual(shape(fake));
      }
    });

    it('a customer both organisations share: each sees only its own lists on the profile and in members', async () => {
      const { a, list: aList } = await orgWithList('A only');
      const b = await newOrgWithOwner(t.app, t.db);
      const shared = await customerOf(a.org.id, 'Sha', 'Red');
      await alsoCustomerOf(b.org.id, shared, 'Bee-name', 'Bee-last');
      const bList = await create(b.jar, 'B only');
      expect((await call('PUT', memberUrl(aList.id, shared.id), a.jar)).statusCode).toBe(204);
      expect((await call('PUT', memberUrl(bList.id, shared.id), b.jar)).statusCode).toBe(204);
      const fromA = await call('GET', `/api/customers/${shared.id}/contact-lists`, a.jar);
      const fromB = await call('GET', `/api/customers/${shared.id}/contact-lists`, b.jar);
      expect(fromA.json()).toEqual({ lists: [{ id: aList.id, name: 'A only' }] });
      expect(fromB.json()).toEqual({ lists: [{ id: bList.id, name: 'B only' }] });
      // B names the person as B's roster does, never A's words (and the reverse).
      const bMembers = await membersOf(b.jar, bList.id);
      expect(bMembers.members).toEqual([
        expect.objectContaining({ firstName: 'Bee-name', lastName: 'Bee-last' }),
      ]);
      // B taking the person off B's roster leaves A's list alone.
      await t.db
        .update(rosterItems)
        .set({ deleted: true, updatedAt: new Date() })
        .where(and(eq(rosterItems.orgId, b.org.id), eq(rosterItems.userId, shared.id)));
      expect((await membersOf(a.jar, aList.id)).members.map((m) => m.userId)).toContain(shared.id);
    });

    it("B's staff cannot put A's customers on B's list (nor learn they are A's customers)", async () => {
      const { ann } = await orgWithList();
      const b = await newOrgWithOwner(t.app, t.db);
      const bList = await create(b.jar, 'B list');
      const theirs = await call('PUT', memberUrl(bList.id, ann.id), b.jar);
      const nobody = await call('PUT', memberUrl(bList.id, randomUUID()), b.jar);
      expect(theirs.statusCode).toBe(422);
      expect({ s: theirs.statusCode, b: theirs.body }).toEqual({
        s: nobody.statusCode,
        b: nobody.body,
      });
      expect(await memberRows(bList.id)).toEqual([]);
    });

    it('a body naming another organisation (orgId, id, memberCount) is ignored: the list is the session organisation’s', async () => {
      const { a, list } = await orgWithList('Victim list');
      const b = await newOrgWithOwner(t.app, t.db);
      const made = await call('POST', '/api/contact-lists', b.jar, {
        name: 'Smuggled',
        orgId: a.org.id,
        org_id: a.org.id,
        id: list.id,
        memberCount: 99,
      });
      expect([201, 400]).toContain(made.statusCode);
      if (made.statusCode === 201) {
        const body = made.json<ContactList>();
        expect(body.id).not.toBe(list.id);
        expect(body.memberCount).toBe(0);
        expect(await listRow(body.id)).toMatchObject({ orgId: b.org.id });
      }
      expect((await listsOf(a.jar)).map((l) => l.name)).toEqual(['Victim list']);
      const renamed = await call('PATCH', `/api/contact-lists/${list.id}`, b.jar, {
        name: 'Pwned',
        orgId: b.org.id,
      });
      expect(renamed.statusCode).toBe(404);
      expect(await listRow(list.id)).toMatchObject({ name: 'Victim list', orgId: a.org.id });
    });

    it('a person on staff of both organisations, signed in to B, reaches none of A’s lists', async () => {
      const { a, list, ann } = await orgWithList();
      const b = await newOrgWithOwner(t.app, t.db);
      const both = await signedInStaff(t.app, t.db, b.org.id, [...allClaims]);
      await addMembership(t.db, both.user.id, a.org.id, 'staff', [...allClaims]);
      expect((await listsOf(both.jar)).map((l) => l.id)).not.toContain(list.id);
      for (const [method, url, payload] of endpointsFor(list.id, ann.id)) {
        if (url === '/api/contact-lists') continue;
        const res = await call(method, url, both.jar, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
      }
      await unchanged(a.jar, list, ann.id);
    });
  });

  // ====================================================================== 2. who may act

  describe('who may act', () => {
    it('a customer, staff without view-customers, a kiosk and nobody signed in are refused on every endpoint', async () => {
      const { a, list, ann } = await orgWithList();
      const clerk = await signedInStaff(
        t.app,
        t.db,
        a.org.id,
        allClaims.filter((c) => c !== 'view-customers'),
      );
      const customer = await signedInCustomer(t.app, t.db, a.org.id);
      await allRefused('staff without view-customers', clerk.jar, list.id, ann.id, [403]);
      await allRefused('a customer of A', customer.jar, list.id, ann.id, [403]);
      // The member herself, signed in as a customer.
      const annJar = (
        await logInAs(t.app, ann.email, { profileType: 'use-customer', profileOrgId: a.org.id })
      ).jar;
      await allRefused('the member herself', annJar, list.id, ann.id, [403]);
      await allRefused('nobody', null, list.id, ann.id, [401]);
      const kiosk = await startTestKiosk(t.app, t.db, a.org.id);
      await allRefused('a kiosk', asKiosk(kiosk.jar), list.id, ann.id, [401, 403]);
      await allRefused('a kiosk without its header', kiosk.jar, list.id, ann.id, [401, 403]);
      // Forged cookies.
      await allRefused(
        'a garbage access token',
        { cookie: 'access_token=abc.def.ghi' },
        list.id,
        ann.id,
        [401],
      );
      await unchanged(a.jar, list, ann.id);
    });

    it('a guardian switched into their child (a customer of A) is refused', async () => {
      const { a, list, ann } = await orgWithList();
      const guardian = await insertTestUser(t.db);
      const child = await insertTestUser(t.db, { firstName: 'Kid' });
      await addMembership(t.db, guardian.id, a.org.id, 'customer');
      await addMembership(t.db, child.id, a.org.id, 'customer');
      await linkChild(t.db, guardian.id, child.id, a.org.id);
      const jar = (
        await logInAs(t.app, guardian.email!, {
          profileType: 'use-customer',
          profileOrgId: a.org.id,
        })
      ).jar;
      await switchInto(t.app, jar, child.id);
      await allRefused('guardian in child', jar, list.id, ann.id, [403]);
      await unchanged(a.jar, list, ann.id);
    });

    it('a guardian of a child who is A’s manager never reaches A’s lists through a switch', async () => {
      const { a, list, ann } = await orgWithList();
      const bossKid = await insertTestUser(t.db);
      await addMembership(t.db, bossKid.id, a.org.id, 'staff', [...allClaims]);
      const bossGuardian = await insertTestUser(t.db);
      await linkChild(t.db, bossGuardian.id, bossKid.id, null);
      const jar = (await logInAs(t.app, bossGuardian.email!)).jar;
      await switchTo(t.app, jar, bossKid.id, a.org.id);
      for (const [method, url, payload] of endpointsFor(list.id, ann.id)) {
        const res = await call(method, url, jar, payload);
        expect(res.statusCode, `${method} ${url}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode).toBeLessThan(500);
      }
      await unchanged(a.jar, list, ann.id);
    });

    it('an admin impersonating a customer is refused; an admin with no switch reaches no organisation', async () => {
      const { a, list, ann } = await orgWithList();
      const admin = await insertTestUser(t.db, { role: 'admin' });
      const plain = (await logInAs(t.app, admin.email!)).jar;
      await allRefused('admin, no switch', plain, list.id, ann.id, [401, 403]);
      const intoCustomer = (await logInAs(t.app, admin.email!)).jar;
      const switched = await switchTo(t.app, intoCustomer, ann.id);
      expect(switched.statusCode, switched.body).toBe(303);
      await allRefused('admin as a customer', intoCustomer, list.id, ann.id, [403]);
      // An admin trying to pick A's staff view without being staff.
      const tryOrg = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: {
          identifier: admin.email,
          password: TEST_PASSWORD,
          profileType: 'use-org',
          profileOrgId: a.org.id,
        },
        remoteAddress: '10.9.9.9',
      });
      expect(tryOrg.statusCode).toBeLessThan(500);
      if (tryOrg.statusCode === 200) {
        const jar = new CookieJar().store(tryOrg);
        await allRefused('admin picking A', jar, list.id, ann.id, [401, 403]);
      }
      await unchanged(a.jar, list, ann.id);
    });

    it('an admin impersonating A’s owner: a member they add is on record as the admin’s doing, not the owner’s', async () => {
      const { a, list } = await orgWithList();
      const bo = await customerOf(a.org.id, 'Bo', 'Kim');
      const admin = await insertTestUser(t.db, { role: 'admin' });
      const jar = (await logInAs(t.app, admin.email!)).jar;
      const switched = await switchTo(t.app, jar, a.owner.id, a.org.id);
      expect(switched.statusCode, switched.body).toBe(303);
      expect((await call('PUT', memberUrl(list.id, bo.id), jar)).statusCode).toBe(204);
      const [row] = await t.db
        .select()
        .from(contactListMembers)
        .where(and(eq(contactListMembers.listId, list.id), eq(contactListMembers.userId, bo.id)));
      // SAFE (as exports and refunds record it): the admin at the keyboard is named, not the
      // owner, for a person put on a marketing list.
      expect(row?.addedByUserId).toBe(admin.id);
    });

    it('a staff member whose membership is removed (or claim taken) after signing in is refused on the next request', async () => {
      const { a, list, ann } = await orgWithList();
      const clerk = await signedInStaff(t.app, t.db, a.org.id, [...allClaims]);
      expect((await listsOf(clerk.jar)).map((l) => l.id)).toEqual([list.id]);
      await t.db
        .update(memberships)
        .set({ claims: allClaims.filter((c) => c !== 'view-customers') })
        .where(and(eq(memberships.userId, clerk.user.id), eq(memberships.orgId, a.org.id)));
      await allRefused('claim taken', clerk.jar, list.id, ann.id, [401, 403]);
      await t.db
        .update(memberships)
        .set({ claims: [...allClaims] })
        .where(and(eq(memberships.userId, clerk.user.id), eq(memberships.orgId, a.org.id)));
      expect((await call('GET', '/api/contact-lists', clerk.jar)).statusCode).toBe(200);
      await t.db
        .delete(memberships)
        .where(and(eq(memberships.userId, clerk.user.id), eq(memberships.orgId, a.org.id)));
      await allRefused('membership removed', clerk.jar, list.id, ann.id, [401, 403]);
      // Made a customer instead of staff: still no staff powers.
      await addMembership(t.db, clerk.user.id, a.org.id, 'customer');
      await allRefused('now a customer', clerk.jar, list.id, ann.id, [401, 403]);
      await unchanged(a.jar, list, ann.id);
    });

    it('the staff of a deleted organisation are refused, and its lists are gone', async () => {
      const { a, list, ann } = await orgWithList();
      const other = await orgWithList('Survivor');
      await t.db.delete(organizations).where(eq(organizations.id, a.org.id));
      await allRefused('deleted org owner', a.jar, list.id, ann.id, [401, 403]);
      expect(await listRow(list.id)).toBeUndefined();
      // Nobody else's list is reachable through the orphaned session.
      await allRefused('deleted org owner → other', a.jar, other.list.id, other.ann.id, [401, 403]);
      await unchanged(other.a.jar, other.list, other.ann.id);
    });
  });

  // ====================================================================== 3. members

  describe('members', () => {
    it('only live customers of the organisation go on its lists: not staff, strangers, other orgs’ customers, removed customers, a customer’s child off the roster', async () => {
      const a = await newOrgWithOwner(t.app, t.db);
      const b = await newOrgWithOwner(t.app, t.db);
      const list = await create(a.jar, 'VIP');
      const theirs = await customerOf(b.org.id);
      const colleague = await signedInStaff(t.app, t.db, a.org.id, [...allClaims]);
      const stranger = await insertTestUser(t.db);
      const removed = await customerOf(a.org.id, 'Gone', 'Away');
      await t.db
        .update(rosterItems)
        .set({ deleted: true, updatedAt: new Date() })
        .where(and(eq(rosterItems.orgId, a.org.id), eq(rosterItems.userId, removed.id)));
      // A customer's child: a customer membership and a guardian link, but no roster item.
      const parent = await customerOf(a.org.id, 'Pa', 'Rent');
      const child = await insertTestUser(t.db, { email: null, withPassword: false });
      await addMembership(t.db, child.id, a.org.id, 'customer');
      await linkChild(t.db, parent.id, child.id, a.org.id);
      // A customer membership without a roster item.
      const memberOnly = await insertTestUser(t.db);
      await addMembership(t.db, memberOnly.id, a.org.id, 'customer');
      const admin = await insertTestUser(t.db, { role: 'admin' });

      for (const [who, userId] of [
        ['another org’s customer', theirs.id],
        ['a colleague', colleague.user.id],
        ['the owner', a.owner.id],
        ['a stranger', stranger.id],
        ['a removed customer', removed.id],
        ['a child off the roster', child.id],
        ['a membership without a roster item', memberOnly.id],
        ['an admin', admin.id],
        ['the nil uuid', '00000000-0000-0000-0000-000000000000'],
      ] as const) {
        const res = await call('PUT', memberUrl(list.id, userId), a.jar);
        expect(res.statusCode, `${who}: ${res.body}`).toBe(422);
        expect(res.json()).toMatchObject({ message: contactListMessages.notACustomer });
      }
      expect(await memberRows(list.id)).toEqual([]);
      expect(await membersOf(a.jar, list.id)).toMatchObject({
        list: { memberCount: 0 },
        members: [],
      });
    });

    it('a removed customer stays hidden everywhere: members, count, profile, export-like reads', async () => {
      const { a, list, ann } = await orgWithList();
      await t.db
        .update(rosterItems)
        .set({ deleted: true, updatedAt: new Date() })
        .where(and(eq(rosterItems.orgId, a.org.id), eq(rosterItems.userId, ann.id)));
      expect(await membersOf(a.jar, list.id)).toMatchObject({
        list: { memberCount: 0 },
        members: [],
      });
      expect((await listsOf(a.jar))[0]).toMatchObject({ memberCount: 0 });
      expect((await call('GET', `/api/customers/${ann.id}/contact-lists`, a.jar)).statusCode).toBe(
        404,
      );
      // Re-adding a removed customer is refused.
      expect((await call('PUT', memberUrl(list.id, ann.id), a.jar)).statusCode).toBe(422);
    });

    it('duplicates and removing a non-member are idempotent, and never touch other lists', async () => {
      const { a, list, ann } = await orgWithList();
      const other = await create(a.jar, 'Other');
      expect((await call('PUT', memberUrl(other.id, ann.id), a.jar)).statusCode).toBe(204);
      for (let i = 0; i < 3; i++)
        expect((await call('PUT', memberUrl(list.id, ann.id), a.jar)).statusCode).toBe(204);
      expect(await memberRows(list.id)).toHaveLength(1);
      const bo = await customerOf(a.org.id, 'Bo', 'Kim');
      expect((await call('DELETE', memberUrl(list.id, bo.id), a.jar)).statusCode).toBe(204);
      expect((await call('DELETE', memberUrl(list.id, randomUUID()), a.jar)).statusCode).toBe(204);
      expect((await call('DELETE', memberUrl(list.id, ann.id), a.jar)).statusCode).toBe(204);
      expect(await memberRows(list.id)).toEqual([]);
      expect((await memberRows(other.id)).map((r) => r.userId)).toEqual([ann.id]);
    });

    it('race: twenty concurrent adds of the same member give 204 each and one row', async () => {
      const { a, list } = await orgWithList();
      const bo = await customerOf(a.org.id, 'Bo', 'Kim');
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => call('PUT', memberUrl(list.id, bo.id), a.jar)),
      );
      expect(answers.map((r) => r.statusCode)).toEqual(Array(20).fill(204));
      const rows = await t.db
        .select()
        .from(contactListMembers)
        .where(and(eq(contactListMembers.listId, list.id), eq(contactListMembers.userId, bo.id)));
      expect(rows).toHaveLength(1);
    });

    it('race: adding members while the list is deleted leaves no orphan rows and no 500', async () => {
      for (let round = 0; round < 5; round++) {
        const a = await newOrgWithOwner(t.app, t.db);
        const list = await create(a.jar, `Doomed ${round}`);
        const people = await Promise.all(
          Array.from({ length: 6 }, (_, i) => customerOf(a.org.id, `P${i}`, 'Race')),
        );
        const answers = await Promise.all([
          ...people.slice(0, 3).map((p) => call('PUT', memberUrl(list.id, p.id), a.jar)),
          call('DELETE', `/api/contact-lists/${list.id}`, a.jar),
          ...people.slice(3).map((p) => call('PUT', memberUrl(list.id, p.id), a.jar)),
        ]);
        for (const res of answers) expect([204, 404], res.body).toContain(res.statusCode);
        expect(await listRow(list.id)).toBeUndefined();
        expect(await memberRows(list.id)).toEqual([]);
      }
    });

    it('race: concurrent deletes of one list: one 204, the rest 404', async () => {
      const { a, list } = await orgWithList();
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => call('DELETE', `/api/contact-lists/${list.id}`, a.jar)),
      );
      const codes = answers.map((r) => r.statusCode).sort();
      expect(codes).toEqual([204, 404, 404, 404, 404, 404]);
    });

    it('a member list shows at most 1,000 people while the count says them all; an import of 1,200 members works', async () => {
      const a = await newOrgWithOwner(t.app, t.db);
      const list = await create(a.jar, 'Everyone');
      const n = 1200;
      const tag = randomUUID().slice(0, 8);
      const emails = Array.from({ length: n }, (_, i) => `bulk-${tag}-${i}@example.test`);
      const made = await t.db
        .insert(users)
        .values(
          emails.map((email, i) => ({
            email,
            firstName: `F${i}`,
            lastName: `L${i}`,
            passwordHash: null,
          })),
        )
        .returning({ id: users.id, email: users.email });
      await t.db
        .insert(memberships)
        .values(made.map((u) => ({ userId: u.id, orgId: a.org.id, kind: 'customer' as const })));
      await t.db.insert(rosterItems).values(
        made.map((u, i) => ({
          orgId: a.org.id,
          userId: u.id,
          firstName: `F${i}`,
          lastName: `L${i}`,
          email: u.email,
          updatedAt: new Date(),
        })),
      );
      const csv = emails.map((email) => `${email},Everyone`).join('\n');
      const done = await importFile(a.jar, csv);
      expect(done.status, JSON.stringify(done.rowErrors.slice(0, 3))).toBe('done');
      const { list: counted, members } = await membersOf(a.jar, list.id);
      expect(counted.memberCount).toBe(n);
      expect(members).toHaveLength(1000);
    }, 120_000);
  });

  // ====================================================================== names

  describe('names', () => {
    it('empty, whitespace-only, too long and wrong-typed names are refused with 400, nothing stored', async () => {
      const a = await newOrgWithOwner(t.app, t.db);
      const list = await create(a.jar, 'Keep me');
      const bad: unknown[] = [
        '',
        '   ',
        '\t\n\r',
        '\u00a0\u2003\u3000',
        'x'.repeat(101),
        'x'.repeat(10_000),
        ` ${'y'.repeat(101)} `,
        null,
        42,
        ['a'],
        { name: 'nested' },
        true,
      ];
      for (const name of bad) {
        const made = await call('POST', '/api/contact-lists', a.jar, { name });
        expect(made.statusCode, `POST ${JSON.stringify(name)?.slice(0, 40)}`).toBe(400);
        const renamed = await call('PATCH', `/api/contact-lists/${list.id}`, a.jar, { name });
        expect(renamed.statusCode, `PATCH ${JSON.stringify(name)?.slice(0, 40)}`).toBe(400);
      }
      expect((await listsOf(a.jar)).map((l) => l.name)).toEqual(['Keep me']);
      // A body that is not JSON at all, or no body.
      const text = await t.app.inject({
        method: 'POST',
        url: '/api/contact-lists',
        headers: { ...a.jar.headers(), 'content-type': 'text/plain' },
        payload: 'name=x',
      });
      expect([400, 415]).toContain(text.statusCode);
      expect((await call('POST', '/api/contact-lists', a.jar)).statusCode).toBe(400);
    });

    it('text the database cannot store (NUL, lone surrogates) answers 400, never 500', async () => {
      const a = await newOrgWithOwner(t.app, t.db);
      const list = await create(a.jar, 'Plain');
      for (const raw of ['{"name":"a\\u0000b"}', '{"name":"a\\ud800b"}', '{"name":"\\udc00"}']) {
        for (const [method, url] of [
          ['POST', '/api/contact-lists'],
          ['PATCH', `/api/contact-lists/${list.id}`],
        ] as const) {
          const res = await t.app.inject({
            method,
            url,
            headers: { ...a.jar.headers(), 'content-type': 'application/json' },
            payload: raw,
          });
          expect(res.statusCode, `${method} ${raw}: ${res.body}`).toBe(400);
        }
      }
      expect((await listsOf(a.jar)).map((l) => l.name)).toEqual(['Plain']);
    });

    it('length is counted in characters as the database counts them: 100 emoji fit, 101 answer 400, never 500', async () => {
      const a = await newOrgWithOwner(t.app, t.db);
      expect((await create(a.jar, 'é'.repeat(100))).name).toHaveLength(100);
      const hundred = await call('POST', '/api/contact-lists', a.jar, { name: '😀'.repeat(100) });
      expect(hundred.statusCode, hundred.body).toBe(201);
      const more = await call('POST', '/api/contact-lists', a.jar, { name: '😀'.repeat(101) });
      expect(more.statusCode, more.body).toBe(400);
      // Combining marks: each a character of its own.
      const marks = await call('POST', '/api/contact-lists', a.jar, {
        name: 'e' + '\u0301'.repeat(100),
      });
      expect(marks.statusCode, marks.body).toBe(400);
    });

    it('names with control characters, bidi overrides and HTML round-trip exactly (stored as given, never interpreted)', async () => {
      const a = await newOrgWithOwner(t.app, t.db);
      for (const name of [
        '<script>alert(1)</script>',
        "Robert'); DROP TABLE contact_lists;--",
        'tab\there',
        'line\nbreak',
        'bell\u0007',
        'evil\u202Etxt.exe',
        '=HYPERLINK("http://evil.example")',
      ]) {
        const res = await call('POST', '/api/contact-lists', a.jar, { name });
        expect([201, 400], `${JSON.stringify(name)}: ${res.body}`).toContain(res.statusCode);
        if (res.statusCode === 201) {
          const made = res.json<ContactList>();
          expect(made.name).toBe(name);
          expect((await listRow(made.id))?.name).toBe(name);
        }
      }
      // The table is still there.
      expect((await listsOf(a.jar)).length).toBeGreaterThan(0);
    });

    it('a name made only of invisible characters (zero-width space, word joiner, Hangul filler) is refused as empty', async () => {
      const a = await newOrgWithOwner(t.app, t.db);
      for (const name of ['\u200b', '\u200b\u200b\u2060', '\u3164', '\u2800', '\u200d']) {
        const res = await call('POST', '/api/contact-lists', a.jar, { name });
        expect(res.statusCode, `${JSON.stringify(name)} → ${res.statusCode}`).toBe(400);
      }
    });

    it('names differing only in letter case are refused in every script (the uniqueness claim), including Greek final sigma', async () => {
      const a = await newOrgWithOwner(t.app, t.db);
      const pairs: Array<[string, string]> = [
        ['Newsletter', 'NEWSLETTER'],
        ['École', 'ÉCOLE'],
        ['Über uns', 'über UNS'],
        ['ΟΔΟΣ', 'οδος'],
        ['ΧΟΡΟΣ', 'χορος'],
      ];
      for (const [first, second] of pairs) {
        await create(a.jar, first);
        const res = await call('POST', '/api/contact-lists', a.jar, { name: second });
        expect(res.statusCode, `${first} then ${second}: ${res.body}`).toBe(409);
      }
    });

    it('race: ten concurrent creates of one name (in varying case) give one 201 and 409s, never 500', async () => {
      const a = await newOrgWithOwner(t.app, t.db);
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          call('POST', '/api/contact-lists', a.jar, {
            name: i % 2 === 0 ? 'Race list' : 'RACE LIST',
          }),
        ),
      );
      const codes = answers.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 201)).toHaveLength(1);
      expect(codes.filter((c) => c === 409)).toHaveLength(9);
      expect(await listsOf(a.jar)).toHaveLength(1);
    });

    it('race: two lists renamed to one name at once: one 200, one 409, names stay unique', async () => {
      for (let round = 0; round < 4; round++) {
        const a = await newOrgWithOwner(t.app, t.db);
        const one = await create(a.jar, 'One');
        const two = await create(a.jar, 'Two');
        const [r1, r2] = await Promise.all([
          call('PATCH', `/api/contact-lists/${one.id}`, a.jar, { name: 'Same' }),
          call('PATCH', `/api/contact-lists/${two.id}`, a.jar, { name: 'SAME' }),
        ]);
        expect([r1!.statusCode, r2!.statusCode].sort()).toEqual([200, 409]);
        const names = (await listsOf(a.jar)).map((l) => l.name.toLowerCase());
        expect(new Set(names).size).toBe(2);
      }
    });

    it('a rename racing a delete answers 200 or 404, never 500', async () => {
      for (let round = 0; round < 4; round++) {
        const { a, list } = await orgWithList(`Short-lived ${round}`);
        const answers = await Promise.all([
          call('PATCH', `/api/contact-lists/${list.id}`, a.jar, { name: `Renamed ${round}` }),
          call('DELETE', `/api/contact-lists/${list.id}`, a.jar),
          call('PATCH', `/api/contact-lists/${list.id}`, a.jar, { name: `Again ${round}` }),
        ]);
        for (const res of answers) expect([200, 204, 404], res.body).toContain(res.statusCode);
      }
    });
  });

  // ====================================================================== 4. import and export

  /** Upload a contact-lists CSV, start it, run the jobs: the import's status. */
  async function importFile(jar: CookieJar, text: string): Promise<ImportStatus> {
    const bytes = Buffer.from(text, 'utf8');
    const created = await call('POST', '/api/imports', jar, {
      kind: 'contact-lists',
      fileName: 'lists.csv',
      totalBytes: bytes.length,
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id, chunkBytes } = created.json<{ id: string; chunkBytes: number }>();
    for (let seq = 0; seq * chunkBytes < bytes.length; seq++) {
      const sent = await t.app.inject({
        method: 'PUT',
        url: `/api/imports/${id}/chunks/${seq}`,
        headers: { ...jar.headers(), 'content-type': 'application/octet-stream' },
        payload: bytes.subarray(seq * chunkBytes, (seq + 1) * chunkBytes),
      });
      expect(sent.statusCode, sent.body).toBe(200);
    }
    const started = await call('POST', `/api/imports/${id}/start`, jar);
    expect(started.statusCode, started.body).toBe(200);
    await drainJobs(t.app);
    const status = await call('GET', `/api/imports/${id}`, jar);
    return status.json<ImportStatus>();
  }

  describe('import', () => {
    it('an import naming another organisation’s list (by name or id) adds nobody anywhere', async () => {
      const { a, list: aList, ann } = await orgWithList('A secret list');
      const b = await newOrgWithOwner(t.app, t.db);
      const bCustomer = await customerOf(b.org.id, 'Bea', 'B');
      // B's customer is also A's: a shared address.
      const shared = await customerOf(b.org.id, 'Sha', 'Red');
      await alsoCustomerOf(a.org.id, shared, 'Sha', 'Red');
      for (const csv of [
        `${bCustomer.email},A secret list`,
        `${shared.email},A secret list`,
        `${shared.email},${aList.id}`,
        `${ann.email},${aList.id}`,
      ]) {
        const done = await importFile(b.jar, csv);
        expect(done.status, `${csv}: ${JSON.stringify(done)}`).toBe('refused');
      }
      expect((await memberRows(aList.id)).map((r) => r.userId)).toEqual([ann.id]);
      expect(await listsOf(b.jar)).toEqual([]);
    });

    it('an import into A naming A’s customers and B’s list name that A also has lands only on A’s list', async () => {
      const { a, list: aList } = await orgWithList('Shared name');
      const b = await newOrgWithOwner(t.app, t.db);
      const bList = await create(b.jar, 'Shared name');
      const bo = await customerOf(a.org.id, 'Bo', 'Kim');
      const done = await importFile(a.jar, `${bo.email},shared NAME`);
      expect(done.status, JSON.stringify(done)).toBe('done');
      expect((await memberRows(aList.id)).map((r) => r.userId)).toContain(bo.id);
      expect(await memberRows(bList.id)).toEqual([]);
    });

    it('an import names a list as the organisation spells it: with two lists whose names JavaScript lower-cases alike (ΟΔΟΣ, οδος) the row lands on the list it names, or is refused', async () => {
      const a = await newOrgWithOwner(t.app, t.db);
      const upper = await call('POST', '/api/contact-lists', a.jar, { name: 'ΟΔΟΣ' });
      expect(upper.statusCode).toBe(201);
      const lower = await call('POST', '/api/contact-lists', a.jar, { name: 'οδος' });
      const bo = await customerOf(a.org.id, 'Bo', 'Kim');
      const done = await importFile(a.jar, `${bo.email},ΟΔΟΣ`);
      if (lower.statusCode !== 201) {
        // Uniqueness held: the one list gets the member.
        expect(done.status).toBe('done');
        expect((await memberRows(upper.json<ContactList>().id)).map((r) => r.userId)).toEqual([
          bo.id,
        ]);
        return;
      }
      // Two lists exist: the row must not go to the list it did not name.
      const upperRows = await memberRows(upper.json<ContactList>().id);
      const lowerRows = await memberRows(lower.json<ContactList>().id);
      expect(lowerRows, 'the member went to οδος though the file named ΟΔΟΣ').toEqual([]);
      if (done.status === 'done') expect(upperRows.map((r) => r.userId)).toEqual([bo.id]);
    });

    it('an import by staff without view-customers, a customer, or a switched guardian is refused and adds nobody', async () => {
      const { a, list, ann } = await orgWithList('Imports');
      const clerk = await signedInStaff(
        t.app,
        t.db,
        a.org.id,
        allClaims.filter((c) => c !== 'view-customers'),
      );
      const customer = await signedInCustomer(t.app, t.db, a.org.id);
      for (const jar of [clerk.jar, customer.jar]) {
        const res = await call('POST', '/api/imports', jar, {
          kind: 'contact-lists',
          fileName: 'l.csv',
          totalBytes: 10,
        });
        expect(res.statusCode).toBe(403);
      }
      expect((await memberRows(list.id)).map((r) => r.userId)).toEqual([ann.id]);
    });
  });

  describe('export', () => {
    async function exportFiles(jar: CookieJar) {
      const created = await call('POST', '/api/exports', jar);
      expect(created.statusCode, created.body).toBe(201);
      const { id } = created.json<ExportStatus>();
      const deadline = Date.now() + 60_000;
      for (let n = 0; ; n++) {
        if (n % 20 === 0) t.app.jobs.wake();
        const [row] = await t.db.select().from(exportJobs).where(eq(exportJobs.id, id));
        if (row?.status === 'done') break;
        if (row?.status === 'failed') throw new Error('export failed');
        if (Date.now() > deadline) throw new Error(`export ${id} still ${row?.status}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const download = await call('GET', `/api/exports/${id}/download`, jar);
      expect(download.statusCode).toBe(200);
      const entries = unzipSync(new Uint8Array(download.rawPayload));
      return Object.fromEntries(
        Object.entries(entries).map(([name, bytes]) => [name, strFromU8(bytes)]),
      );
    }

    it("A's export holds none of B's lists or members, even for a customer both share", async () => {
      const mark = `LEAK${randomUUID().slice(0, 8)}`;
      const a = await newOrgWithOwner(t.app, t.db);
      const b = await newOrgWithOwner(t.app, t.db);
      const shared = await customerOf(a.org.id, 'Sha', 'Red');
      await alsoCustomerOf(b.org.id, shared, 'Sha', 'Red');
      const aList = await create(a.jar, 'A own list');
      const bList = await create(b.jar, `${mark} B list`);
      await create(b.jar, `${mark} B empty`);
      expect((await call('PUT', memberUrl(aList.id, shared.id), a.jar)).statusCode).toBe(204);
      expect((await call('PUT', memberUrl(bList.id, shared.id), b.jar)).statusCode).toBe(204);
      const files = await exportFiles(a.jar);
      const all = Object.values(files).join('\n');
      expect(all).not.toContain(mark);
      expect(all).not.toContain(bList.id);
      expect(files['contact-lists.csv']).toContain('A own list');
      expect(files['contact-list-members.csv']).toContain(shared.email);
      // B's, the other way.
      const bFiles = await exportFiles(b.jar);
      expect(Object.values(bFiles).join('\n')).not.toContain('A own list');
    }, 120_000);

    it('a list name starting with = is exported with its formula neutralised', async () => {
      const a = await newOrgWithOwner(t.app, t.db);
      const bo = await customerOf(a.org.id, 'Bo', 'Kim');
      const evil = await create(a.jar, '=HYPERLINK("http://evil.example","x")');
      expect((await call('PUT', memberUrl(evil.id, bo.id), a.jar)).statusCode).toBe(204);
      const files = await exportFiles(a.jar);
      for (const file of ['contact-lists.csv', 'contact-list-members.csv']) {
        const cells = files[file]!.split(/\r?\n/).flatMap((line) => line.split(','));
        for (const cell of cells) expect(cell.replace(/^"/, '')).not.toMatch(/^[=+\-@]/);
      }
    }, 120_000);
  });

  // ====================================================================== 5. replication

  describe('replication', () => {
    it('no list name or id reaches any device’s pull: the member, another org’s staff, A’s own staff', async () => {
      const mark = `REPL${randomUUID().slice(0, 8)}`;
      const { a, ann } = await orgWithList();
      const list = await create(a.jar, `${mark} list`);
      expect((await call('PUT', memberUrl(list.id, ann.id), a.jar)).statusCode).toBe(204);
      const b = await newOrgWithOwner(t.app, t.db);
      const annJar = (
        await logInAs(t.app, ann.email, { profileType: 'use-customer', profileOrgId: a.org.id })
      ).jar;
      await waitForVisibility(t.db);
      for (const [who, jar] of [
        ['the member', annJar],
        ['B staff', b.jar],
        ['A owner', a.jar],
      ] as const) {
        for (const collection of collectionNames) {
          const res = await call('GET', `/api/sync/${collection}/pull`, jar);
          expect(res.statusCode).toBeLessThan(500);
          expect(res.body, `${who} ${collection}`).not.toContain(mark);
          expect(res.body, `${who} ${collection}`).not.toContain(list.id);
        }
      }
      // No contact-list collection to pull at all.
      for (const name of [
        'contact-lists',
        'contact_lists',
        'contactLists',
        'contact-list-members',
      ]) {
        const res = await call('GET', `/api/sync/${name}/pull`, a.jar);
        expect([400, 404]).toContain(res.statusCode);
      }
    });
  });

  it('sanity: every row written by this suite belongs to the organisation of its list', async () => {
    const [mismatch] = rowsOf<{ n: number }>(
      await t.db.execute(sql`
        select count(*)::int as n from contact_list_members m
        join contact_lists l on l.id = m.list_id
        where l.org_id <> m.org_id`),
    );
    expect(Number(mismatch?.n)).toBe(0);
    const byRoster = await t.db
      .select({ userId: contactListMembers.userId })
      .from(contactListMembers)
      .where(
        sql`not exists (select 1 from roster_items r where r.org_id = ${contactListMembers.orgId} and r.user_id = ${contactListMembers.userId})`,
      );
    expect(byRoster).toEqual([]);
  });
});
