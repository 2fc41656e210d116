import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contactListMessages,
  type CustomerContactListsResponse,
} from '@platform/schema/crm/contact-lists.zod';
import { crmMessages } from '@platform/schema/crm/crm.messages';
import { contactListMembers, rosterItems } from '@platform/schema/db';
import { claims as allClaims } from '@platform/schema/organizations/claims';
import {
  addMembership,
  insertTestUser,
  newOrgWithOwner,
  signedInStaff,
  uniqueEmail,
} from '../testing/auth-fixtures.ts';
import { contactListCalls, contactListMemberUrl } from '../testing/contact-list-fixtures.ts';
import type { CookieJar } from '../testing/cookie-jar.ts';
import { signedInCustomer } from '../testing/sync-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { addMembersByEmail, contactListsByName } from './contact-lists.service.ts';

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

describe.each(testDatabaseKinds)('contact lists on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp(kind);
  }, 60_000);
  afterAll(() => t.close());

  const call = (method: Method, url: string, jar: CookieJar | null, payload?: object) =>
    t.app.inject({ method, url, headers: jar?.headers() ?? {}, ...(payload ? { payload } : {}) });

  const create = (jar: CookieJar, name: string) => contactListCalls(t.app).create(jar, name);
  const listsOf = (jar: CookieJar) => contactListCalls(t.app).listsOf(jar);
  const membersOf = (jar: CookieJar, listId: string) =>
    contactListCalls(t.app).membersOf(jar, listId);
  const memberUrl = contactListMemberUrl;

  /** A customer of the organisation: the roster names them otherwise than their account does. */
  async function customerOf(orgId: string, firstName: string, lastName: string) {
    const email = uniqueEmail(firstName.toLowerCase());
    const user = await insertTestUser(t.db, { email, firstName: 'Account', lastName: 'Name' });
    await addMembership(t.db, user.id, orgId, 'customer');
    const [item] = await t.db
      .insert(rosterItems)
      .values({ orgId, userId: user.id, firstName, lastName, email, updatedAt: new Date() })
      .returning();
    return { id: user.id, email, rosterId: item!.id };
  }

  it('creates, lists with member counts by name, renames and deletes lists', async () => {
    const a = await newOrgWithOwner(t.app, t.db);
    expect(await listsOf(a.jar)).toEqual([]);
    const news = await create(a.jar, '  Newsletter ');
    expect(news).toEqual({ id: expect.any(String), name: 'Newsletter', memberCount: 0 });
    const leads = await create(a.jar, 'leads');
    const ann = await customerOf(a.org.id, 'Ann', 'Lee');
    const bo = await customerOf(a.org.id, 'Bo', 'Kim');
    for (const person of [ann, bo])
      expect((await call('PUT', memberUrl(news.id, person.id), a.jar)).statusCode).toBe(204);
    expect(await listsOf(a.jar)).toEqual([
      { id: leads.id, name: 'leads', memberCount: 0 },
      { id: news.id, name: 'Newsletter', memberCount: 2 },
    ]);

    const renamed = await call('PATCH', `/api/contact-lists/${leads.id}`, a.jar, {
      name: 'Warm leads',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toEqual({ id: leads.id, name: 'Warm leads', memberCount: 0 });
    // The same list in another case is a rename, not a clash.
    const recased = await call('PATCH', `/api/contact-lists/${news.id}`, a.jar, {
      name: 'NEWSLETTER',
    });
    expect(recased.json()).toEqual({ id: news.id, name: 'NEWSLETTER', memberCount: 2 });
    expect((await listsOf(a.jar)).map((l) => l.name)).toEqual(['NEWSLETTER', 'Warm leads']);

    expect((await call('DELETE', `/api/contact-lists/${news.id}`, a.jar)).statusCode).toBe(204);
    expect((await listsOf(a.jar)).map((l) => l.name)).toEqual(['Warm leads']);
    const gone = await call('GET', `/api/contact-lists/${news.id}/members`, a.jar);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ message: contactListMessages.notFound });
    // Its members' rows went with it.
    const rows = await t.db
      .select()
      .from(contactListMembers)
      .where(eq(contactListMembers.listId, news.id));
    expect(rows).toEqual([]);
    expect((await call('DELETE', `/api/contact-lists/${news.id}`, a.jar)).statusCode).toBe(404);
  });

  it('refuses a name taken in any letter case, an empty name and a name past 100 characters', async () => {
    const a = await newOrgWithOwner(t.app, t.db);
    const news = await create(a.jar, 'Newsletter');
    const taken = await call('POST', '/api/contact-lists', a.jar, { name: ' NEWSLETTER ' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({
      message: 'A contact list named NEWSLETTER already exists',
    });
    const other = await create(a.jar, 'Leads');
    const renamed = await call('PATCH', `/api/contact-lists/${other.id}`, a.jar, {
      name: 'newsletter',
    });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json()).toMatchObject({
      message: contactListMessages.nameTaken('newsletter'),
    });

    const empty = await call('POST', '/api/contact-lists', a.jar, { name: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({
      errors: [{ field: 'name', message: contactListMessages.nameRequired }],
    });
    const long = await call('PATCH', `/api/contact-lists/${news.id}`, a.jar, {
      name: 'x'.repeat(101),
    });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({
      errors: [{ field: 'name', message: contactListMessages.nameTooLong }],
    });
    expect((await create(a.jar, 'x'.repeat(100))).name).toHaveLength(100);
    // Another organisation may use the same name.
    const b = await newOrgWithOwner(t.app, t.db);
    expect((await create(b.jar, 'Newsletter')).name).toBe('Newsletter');
  });

  it('adds and removes members idempotently, named as the roster names them', async () => {
    const a = await newOrgWithOwner(t.app, t.db);
    const list = await create(a.jar, 'Morning crew');
    const zoe = await customerOf(a.org.id, 'Zoe', 'Adams');
    const ann = await customerOf(a.org.id, 'Ann', 'Zed');
    for (let i = 0; i < 2; i++) {
      expect((await call('PUT', memberUrl(list.id, zoe.id), a.jar)).statusCode).toBe(204);
      expect((await call('PUT', memberUrl(list.id, ann.id), a.jar)).statusCode).toBe(204);
    }
    const { list: counted, members } = await membersOf(a.jar, list.id);
    expect(counted.memberCount).toBe(2);
    expect(members).toEqual([
      {
        userId: zoe.id,
        rosterId: zoe.rosterId,
        firstName: 'Zoe',
        lastName: 'Adams',
        email: zoe.email,
      },
      {
        userId: ann.id,
        rosterId: ann.rosterId,
        firstName: 'Ann',
        lastName: 'Zed',
        email: ann.email,
      },
    ]);
    const onProfile = await call('GET', `/api/customers/${zoe.id}/contact-lists`, a.jar);
    expect(onProfile.json<CustomerContactListsResponse>()).toEqual({
      lists: [{ id: list.id, name: 'Morning crew' }],
    });

    for (let i = 0; i < 2; i++)
      expect((await call('DELETE', memberUrl(list.id, zoe.id), a.jar)).statusCode).toBe(204);
    expect((await membersOf(a.jar, list.id)).members.map((m) => m.userId)).toEqual([ann.id]);
    expect((await call('GET', `/api/customers/${zoe.id}/contact-lists`, a.jar)).json()).toEqual({
      lists: [],
    });

    // Taken off the list of customers: no longer counted or listed as a member.
    await t.db
      .update(rosterItems)
      .set({ deleted: true, updatedAt: new Date() })
      .where(and(eq(rosterItems.orgId, a.org.id), eq(rosterItems.userId, ann.id)));
    expect(await membersOf(a.jar, list.id)).toMatchObject({
      list: { memberCount: 0 },
      members: [],
    });
  });

  it('puts only customers of the organisation on its lists', async () => {
    const a = await newOrgWithOwner(t.app, t.db);
    const b = await newOrgWithOwner(t.app, t.db);
    const list = await create(a.jar, 'VIP');
    const theirs = await customerOf(b.org.id, 'Other', 'Customer');
    const colleague = await signedInStaff(t.app, t.db, a.org.id, [...allClaims]);
    const nobody = '00000000-0000-4000-8000-000000000000';
    for (const userId of [theirs.id, colleague.user.id, a.owner.id, nobody]) {
      const res = await call('PUT', memberUrl(list.id, userId), a.jar);
      expect(res.statusCode, userId).toBe(422);
      expect(res.json()).toMatchObject({ message: contactListMessages.notACustomer });
    }
    expect((await membersOf(a.jar, list.id)).members).toEqual([]);
    const profile = await call('GET', `/api/customers/${theirs.id}/contact-lists`, a.jar);
    expect(profile.statusCode).toBe(404);
    expect(profile.json()).toMatchObject({ message: crmMessages.notFound });
    const invalid = await call('PUT', memberUrl(list.id, 'not-a-uuid'), a.jar);
    expect(invalid.statusCode).toBe(400);
  });

  it('tenancy: other organisations’ staff find nothing, others are refused, on every endpoint', async () => {
    const a = await newOrgWithOwner(t.app, t.db);
    const list = await create(a.jar, 'Members only');
    const ann = await customerOf(a.org.id, 'Ann', 'Lee');
    expect((await call('PUT', memberUrl(list.id, ann.id), a.jar)).statusCode).toBe(204);

    const endpoints: Array<[Method, string, object?]> = [
      ['GET', '/api/contact-lists'],
      ['POST', '/api/contact-lists', { name: 'Intruders' }],
      ['PATCH', `/api/contact-lists/${list.id}`, { name: 'Taken over' }],
      ['DELETE', `/api/contact-lists/${list.id}`],
      ['GET', `/api/contact-lists/${list.id}/members`],
      ['PUT', memberUrl(list.id, ann.id)],
      ['DELETE', memberUrl(list.id, ann.id)],
      ['GET', `/api/customers/${ann.id}/contact-lists`],
    ];

    // Staff of another organisation, holding every claim: their own (empty) lists, or 404.
    const b = await newOrgWithOwner(t.app, t.db);
    for (const [method, url, payload] of endpoints) {
      const res = await call(method, url, b.jar, payload);
      if (url === '/api/contact-lists')
        expect(res.statusCode, `${method} ${url}`).toBe(method === 'GET' ? 200 : 201);
      else expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await listsOf(b.jar)).map((l) => l.name)).toEqual(['Intruders']);

    const withoutClaim = await signedInStaff(t.app, t.db, a.org.id, ['manage-point-of-sale']);
    const customer = await signedInCustomer(t.app, t.db, a.org.id);
    const refused: Array<[string, CookieJar | null, number]> = [
      ['staff without view-customers', withoutClaim.jar, 403],
      ['a customer', customer.jar, 403],
      ['nobody signed in', null, 401],
    ];
    for (const [who, jar, status] of refused)
      for (const [method, url, payload] of endpoints) {
        const res = await call(method, url, jar, payload);
        expect(res.statusCode, `${who}: ${method} ${url}`).toBe(status);
      }

    // Nothing changed.
    expect(await listsOf(a.jar)).toEqual([{ id: list.id, name: 'Members only', memberCount: 1 }]);
  });

  it('addMembersByEmail adds the organisation’s customers by address once, and ignores the rest', async () => {
    const a = await newOrgWithOwner(t.app, t.db);
    const b = await newOrgWithOwner(t.app, t.db);
    const news = await create(a.jar, 'Newsletter');
    const leads = await create(a.jar, 'Leads');
    const theirList = await create(b.jar, 'Theirs');
    const ann = await customerOf(a.org.id, 'Ann', 'Lee');
    const bo = await customerOf(a.org.id, 'Bo', 'Kim');
    const stranger = await customerOf(b.org.id, 'Cy', 'Other');

    const byName = await contactListsByName(t.db, a.org.id);
    expect(byName).toEqual(
      new Map([
        ['newsletter', { id: news.id }],
        ['leads', { id: leads.id }],
      ]),
    );

    const rows = [
      { email: ann.email.toUpperCase(), contactListId: news.id },
      { email: ann.email, contactListId: leads.id },
      { email: bo.email, contactListId: news.id },
      { email: 'nobody@example.test', contactListId: news.id },
      { email: stranger.email, contactListId: news.id },
      { email: ann.email, contactListId: theirList.id },
    ];
    const first = await t.db.transaction((tx) => addMembersByEmail(tx, a.org.id, a.owner.id, rows));
    expect(first).toEqual({ added: 3, unchanged: 0 });
    const second = await t.db.transaction((tx) =>
      addMembersByEmail(tx, a.org.id, a.owner.id, rows),
    );
    expect(second).toEqual({ added: 0, unchanged: 3 });

    expect((await membersOf(a.jar, news.id)).members.map((m) => m.userId).sort()).toEqual(
      [ann.id, bo.id].sort(),
    );
    expect((await membersOf(a.jar, leads.id)).members.map((m) => m.userId)).toEqual([ann.id]);
    expect((await membersOf(b.jar, theirList.id)).members).toEqual([]);
    const [row] = await t.db
      .select()
      .from(contactListMembers)
      .where(eq(contactListMembers.listId, leads.id));
    expect(row).toMatchObject({ orgId: a.org.id, addedByUserId: a.owner.id });

    // 5,000 rows are one parameter, not 10,000.
    const many = Array.from({ length: 5000 }, (_, i) => ({
      email: i === 0 ? bo.email : `nobody-${i}@example.test`,
      contactListId: leads.id,
    }));
    const big = await t.db.transaction((tx) => addMembersByEmail(tx, a.org.id, null, many));
    expect(big).toEqual({ added: 1, unchanged: 0 });
  });
});
