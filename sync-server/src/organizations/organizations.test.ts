import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { auditLog, memberships, organizations } from '@platform/schema/db';
import { defaultWaiverText, documentMessages } from '@platform/schema/organizations/documents.zod';
import { claims } from '@platform/schema/organizations/claims';
import { organizationMessages } from '@platform/schema/organizations/organizations.zod';
import { addMembership, insertTestOrg, insertTestUser, logInAs } from '../testing/auth-fixtures.ts';
import { CookieJar } from '../testing/cookie-jar.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

describe.each(testDatabaseKinds)('organisations on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  const post = (url: string, jar: CookieJar, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url, headers: jar.headers(), payload });

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  describe('POST /api/organizations', () => {
    it('creates the organisation with the creator as staff holding every claim', async () => {
      const user = await insertTestUser(t.db);
      const { jar } = await logInAs(t.app, user.email!);
      const res = await post('/api/organizations', jar, {
        companyName: '  Summit Coaching ',
        companyLocation: 'Denver',
      });
      expect(res.statusCode).toBe(201);
      const body = res.json<{ id: string; label: string }>();
      expect(body).toEqual({ id: expect.any(String), label: 'Summit Coaching' });
      const [org] = await t.db.select().from(organizations).where(eq(organizations.id, body.id));
      expect(org).toMatchObject({
        platform: 'zipper',
        companyLocation: 'Denver',
        attributes: { coachingBusinessName: 'Summit Coaching', timezone: 'America/New_York' },
      });
      const [membership] = await t.db
        .select()
        .from(memberships)
        .where(and(eq(memberships.orgId, body.id), eq(memberships.userId, user.id)));
      expect(membership?.kind).toBe('staff');
      expect([...(membership?.claims ?? [])].sort()).toEqual([...claims].sort());
    });

    it('refuses a name under 3 characters with the spec message', async () => {
      const user = await insertTestUser(t.db);
      const { jar } = await logInAs(t.app, user.email!);
      const res = await post('/api/organizations', jar, { companyName: 'ab ' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        errors: [{ field: 'companyName', message: organizationMessages.nameTooShort }],
      });
    });

    it('needs a session', async () => {
      expect(
        (await post('/api/organizations', new CookieJar(), { companyName: 'Nobody Inc' }))
          .statusCode,
      ).toBe(401);
    });
  });

  describe('POST /api/organizations/timezone', () => {
    it('lets staff with manage-org-settings set a valid zone', async () => {
      const org = await insertTestOrg(t.db);
      const user = await insertTestUser(t.db);
      await addMembership(t.db, user.id, org.id, 'staff', ['manage-org-settings']);
      const { jar } = await logInAs(t.app, user.email!, { profileType: 'use-org' });
      const res = await post('/api/organizations/timezone', jar, {
        orgId: org.id,
        timezone: 'Europe/Paris',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ orgId: org.id, timezone: 'Europe/Paris' });
      const [row] = await t.db.select().from(organizations).where(eq(organizations.id, org.id));
      expect(row?.attributes.timezone).toBe('Europe/Paris');

      const bad = await post('/api/organizations/timezone', jar, {
        orgId: org.id,
        timezone: 'Mars/Olympus_Mons',
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({
        errors: [{ field: 'timezone', message: organizationMessages.invalidTimezone }],
      });
    });

    it('refuses staff without the claim, other organisations and anonymous callers', async () => {
      const org = await insertTestOrg(t.db);
      const other = await insertTestOrg(t.db);
      const clerk = await insertTestUser(t.db);
      await addMembership(t.db, clerk.id, org.id, 'staff', ['manage-own-time-tracking']);
      const { jar } = await logInAs(t.app, clerk.email!, { profileType: 'use-org' });
      expect(
        (await post('/api/organizations/timezone', jar, { orgId: org.id, timezone: 'UTC' }))
          .statusCode,
      ).toBe(403);
      expect(
        (await post('/api/organizations/timezone', jar, { orgId: other.id, timezone: 'UTC' }))
          .statusCode,
      ).toBe(403);
      expect(
        (
          await post('/api/organizations/timezone', new CookieJar(), {
            orgId: org.id,
            timezone: 'UTC',
          })
        ).statusCode,
      ).toBe(401);
    });
  });

  describe('GET /api/organizations/:orgId/home', () => {
    const home = (orgId: string, jar: CookieJar) =>
      t.app.inject({
        method: 'GET',
        url: `/api/organizations/${orgId}/home`,
        headers: jar.headers(),
      });

    it('counts the setup steps and today’s figures, each only for the claims that cover it', async () => {
      const org = await insertTestOrg(t.db);
      const owner = await insertTestUser(t.db);
      await addMembership(t.db, owner.id, org.id, 'staff');
      const { jar } = await logInAs(t.app, owner.email!, { profileType: 'use-org' });
      const before = await home(org.id, jar);
      expect(before.statusCode).toBe(200);
      expect(before.json()).toEqual({
        setup: { branding: false, team: false, customers: false },
        figures: { onTheClock: 0, newCustomersThisWeek: 0, customers: 0 },
      });

      const clerk = await insertTestUser(t.db);
      await addMembership(t.db, clerk.id, org.id, 'staff', ['manage-own-time-tracking']);
      const customer = await insertTestUser(t.db);
      await t.db.execute(sql`
        insert into roster_items (org_id, user_id, first_name, last_name, email, updated_at)
        values (${org.id}, ${customer.id}, 'Cam', 'Customer', ${customer.email}, now())`);
      await t.db.execute(sql`
        insert into time_entries (id, org_id, user_id, start_time, updated_at)
        values (gen_random_uuid(), ${org.id}, ${clerk.id}, now() - interval '1 hour', now())`);
      await t.db.execute(sql`
        update org_branding set theme_color = '#123456', updated_at = now() + interval '2 seconds'
        where org_id = ${org.id}`);
      expect((await home(org.id, jar)).json()).toEqual({
        setup: { branding: true, team: true, customers: true },
        figures: { onTheClock: 1, newCustomersThisWeek: 1, customers: 1 },
      });

      // A time-only employee sees no team, customer or others' clock figures.
      const { jar: clerkJar } = await logInAs(t.app, clerk.email!, { profileType: 'use-org' });
      expect((await home(org.id, clerkJar)).json()).toEqual({
        setup: { branding: null, team: null, customers: null },
        figures: { onTheClock: null, newCustomersThisWeek: null, customers: null },
      });
    });

    it('refuses other organisations, customers and anonymous callers', async () => {
      const org = await insertTestOrg(t.db);
      const other = await insertTestOrg(t.db);
      const owner = await insertTestUser(t.db);
      await addMembership(t.db, owner.id, other.id, 'staff');
      const { jar } = await logInAs(t.app, owner.email!, { profileType: 'use-org' });
      expect((await home(org.id, jar)).statusCode).toBe(403);
      const customer = await insertTestUser(t.db);
      await addMembership(t.db, customer.id, org.id, 'customer');
      const { jar: customerJar } = await logInAs(t.app, customer.email!);
      expect((await home(org.id, customerJar)).statusCode).toBe(403);
      expect((await home(org.id, new CookieJar())).statusCode).toBe(401);
      expect((await home('not-a-uuid', jar)).statusCode).toBeGreaterThanOrEqual(400);
      expect((await home('not-a-uuid', jar)).statusCode).toBeLessThan(500);
    });
  });

  describe('waiver of liability', () => {
    const url = (orgId: string) => `/api/organizations/${orgId}/documents/waiver-of-liability`;
    const put = (orgId: string, jar: CookieJar, text: string) =>
      t.app.inject({ method: 'PUT', url: url(orgId), headers: jar.headers(), payload: { text } });

    it('is the platform’s until the organisation writes its own, readable by anyone, audited', async () => {
      const org = await insertTestOrg(t.db, 'Waiver Gym');
      const owner = await insertTestUser(t.db);
      await addMembership(t.db, owner.id, org.id, 'staff');
      const anonymous = await t.app.inject({ method: 'GET', url: url(org.id) });
      expect(anonymous.json()).toEqual({
        orgLabel: 'Waiver Gym',
        text: defaultWaiverText,
        isDefault: true,
      });

      const { jar } = await logInAs(t.app, owner.email!, { profileType: 'use-org' });
      const saved = await put(org.id, jar, '  Train at your own risk.\n\nNo refunds.  ');
      expect(saved.statusCode).toBe(200);
      expect(saved.json()).toEqual({
        orgLabel: 'Waiver Gym',
        text: 'Train at your own risk.\n\nNo refunds.',
        isDefault: false,
      });
      expect((await t.app.inject({ method: 'GET', url: url(org.id) })).json()).toMatchObject({
        isDefault: false,
      });
      const [audit] = await t.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.orgId, org.id), eq(auditLog.action, 'waiver-of-liability')));
      expect(audit).toMatchObject({ actorUserId: owner.id, detail: { reset: false } });

      expect((await put(org.id, jar, '   ')).json()).toMatchObject({
        text: defaultWaiverText,
        isDefault: true,
      });
      const nul = await put(org.id, jar, 'a\u0000b');
      expect(nul.statusCode).toBe(400);
      const long = await put(org.id, jar, 'x'.repeat(20_001));
      expect(long.statusCode).toBe(400);
      expect(long.json()).toMatchObject({ errors: [{ message: documentMessages.waiverTooLong }] });
      expect((await t.app.inject({ method: 'GET', url: url(randomUUID()) })).statusCode).toBe(404);
    });

    it('is changed only by staff of the organisation with manage-org-settings', async () => {
      const org = await insertTestOrg(t.db);
      const other = await insertTestOrg(t.db);
      const clerk = await insertTestUser(t.db);
      await addMembership(t.db, clerk.id, org.id, 'staff', ['manage-own-time-tracking']);
      const { jar } = await logInAs(t.app, clerk.email!, { profileType: 'use-org' });
      expect((await put(org.id, jar, 'Mine now')).statusCode).toBe(403);
      const owner = await insertTestUser(t.db);
      await addMembership(t.db, owner.id, other.id, 'staff');
      const { jar: ownerJar } = await logInAs(t.app, owner.email!, { profileType: 'use-org' });
      expect((await put(org.id, ownerJar, 'Mine now')).statusCode).toBe(403);
      expect((await put(org.id, new CookieJar(), 'Mine now')).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url: url(org.id) })).json()).toMatchObject({
        isDefault: true,
      });
    });
  });
});
