import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { organizations } from '@platform/schema/db';
import { exportMessages } from '@platform/schema/time-tracking/time-tracking.zod';
import { addMembership, insertTestUser, logInAs } from '../testing/auth-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { seedSyncOrg, type Person } from '../testing/sync-fixtures.ts';
import { timeTrackingMessages } from './time-tracking.service.ts';

const header = 'Person,Email,Date,Start,End,Break minutes,Worked hours';

describe.each(testDatabaseKinds)('the payroll export and the team list on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;
  let b: Awaited<ReturnType<typeof seedSyncOrg>>;
  let quoted: Person;

  const exportCsv = (who: Person, query: Record<string, string>) =>
    t.app.inject({
      url: `/api/time-tracking/export.csv?${new URLSearchParams(query)}`,
      headers: who.jar.headers(),
    });
  const create = (who: Person, timeEntry: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/time-tracking',
      headers: who.jar.headers(),
      payload: { action: 'create-time-entry', orgId: a.org.id, timeEntry },
    });
  const linesOf = (body: string) => body.replace(/^\uFEFF/, '').split('\r\n');

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await seedSyncOrg(t.app, t.db);
    b = await seedSyncOrg(t.app, t.db);
    await t.db
      .update(organizations)
      .set({ attributes: { timezone: 'America/New_York' } })
      .where(eq(organizations.id, a.org.id));
    const user = await insertTestUser(t.db, { firstName: 'Zoë, "Z"', lastName: 'Ørsted' });
    await addMembership(t.db, user.id, a.org.id, 'staff', ['manage-own-time-tracking']);
    const { jar } = await logInAs(t.app, user.email ?? '', {
      profileType: 'use-org',
      profileOrgId: a.org.id,
    });
    quoted = { id: user.id, email: user.email ?? '', jar };
    // Monday 23 November 2026 in New York: 08:30–17:15 with a 45-minute lunch.
    await create(quoted, {
      startTime: '2026-11-23T13:30:00.000Z',
      endTime: '2026-11-23T22:15:00.000Z',
      breakIntervals: [
        { startTime: '2026-11-23T17:00:00.000Z', endTime: '2026-11-23T17:45:00.000Z' },
      ],
    });
    // 22:00 Sunday 29th to 01:00 Monday 30th, New York time: a Sunday entry, by its start.
    await create(a.staff, {
      startTime: '2026-11-30T03:00:00.000Z',
      endTime: '2026-11-30T06:00:00.000Z',
    });
    // 23:00 on the 30th in New York is already 1 December in UTC: still the 30th.
    await create(a.staff, {
      startTime: '2026-12-01T04:00:00.000Z',
      endTime: '2026-12-01T04:30:00.000Z',
    });
  });
  afterAll(() => t.close());

  it('gives a manager everyone’s entries that start in the range, as a CSV file to download', async () => {
    const res = await exportCsv(a.manager, {
      orgId: a.org.id,
      from: '2026-11-23',
      to: '2026-11-29',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="time-entries-2026-11-23-to-2026-11-29.csv"',
    );
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const staffEmail = a.staff.email;
    expect(linesOf(res.body)).toEqual([
      header,
      `Test User,${staffEmail},2026-11-29,22:00,01:00,0,3.00`,
      `"Zoë, ""Z"" Ørsted",${quoted.email},2026-11-23,08:30,17:15,45,8.00`,
      '',
    ]);
  });

  it('counts days in the organisation’s zone: an evening entry belongs to its local day', async () => {
    const res = await exportCsv(a.manager, {
      orgId: a.org.id,
      from: '2026-11-30',
      to: '2026-11-30',
    });
    expect(linesOf(res.body)).toEqual([
      header,
      `Test User,${a.staff.email},2026-11-30,23:00,23:30,0,0.50`,
      '',
    ]);
  });

  it('narrows a manager’s export to one person, and gives manage-own only one’s own entries', async () => {
    const one = await exportCsv(a.manager, {
      orgId: a.org.id,
      from: '2026-11-01',
      to: '2026-11-30',
      userId: quoted.id,
    });
    expect(linesOf(one.body)).toHaveLength(3);
    const own = await exportCsv(a.staff, { orgId: a.org.id, from: '2026-11-01', to: '2026-12-31' });
    expect(own.statusCode).toBe(200);
    expect(
      linesOf(own.body)
        .slice(1, -1)
        .every((line) => line.includes(a.staff.email)),
    ).toBe(true);
    expect(linesOf(own.body)).toHaveLength(4);
    const someoneElse = await exportCsv(a.staff, {
      orgId: a.org.id,
      from: '2026-11-01',
      to: '2026-11-30',
      userId: quoted.id,
    });
    expect([someoneElse.statusCode, someoneElse.json().message]).toEqual([
      403,
      timeTrackingMessages.ownOnly,
    ]);
  });

  it('refuses another organisation, customers and people without a session', async () => {
    const query = { orgId: a.org.id, from: '2026-11-01', to: '2026-11-30' };
    expect((await exportCsv(b.manager, query)).statusCode).toBe(403);
    expect((await exportCsv(a.parent, query)).statusCode).toBe(403);
    expect(
      (await t.app.inject({ url: `/api/time-tracking/export.csv?${new URLSearchParams(query)}` }))
        .statusCode,
    ).toBe(401);
  });

  it('answers a range that is malformed, backwards or longer than a year with 400', async () => {
    const issue = async (from: string, to: string) => {
      const res = await exportCsv(a.manager, { orgId: a.org.id, from, to });
      return [res.statusCode, res.json().issues[0].message];
    };
    expect(await issue('2026-11-31', '2026-12-01')).toEqual([400, exportMessages.notADay]);
    expect(await issue('2026-12-02', '2026-12-01')).toEqual([400, exportMessages.toBeforeFrom]);
    expect(await issue('2026-01-01', '2027-01-02')).toEqual([400, exportMessages.tooLong]);
    // 366 days, a leap year's worth, is the most.
    expect(
      (await exportCsv(a.manager, { orgId: a.org.id, from: '2026-01-01', to: '2027-01-01' }))
        .statusCode,
    ).toBe(200);
  });

  it('lists the people who track time for managers only', async () => {
    const res = await t.app.inject({
      url: `/api/time-tracking/people?orgId=${a.org.id}`,
      headers: a.manager.jar.headers(),
    });
    expect(res.statusCode).toBe(200);
    const ids = res.json().people.map((p: { id: string }) => p.id);
    expect(ids).toEqual(expect.arrayContaining([a.manager.id, a.staff.id, quoted.id]));
    expect(res.json().people).toContainEqual({
      id: quoted.id,
      fullName: 'Zoë, "Z" Ørsted',
      email: quoted.email,
    });
    expect(ids).not.toContain(a.parent.id);
    const own = await t.app.inject({
      url: `/api/time-tracking/people?orgId=${a.org.id}`,
      headers: a.staff.jar.headers(),
    });
    expect([own.statusCode, own.json().message]).toEqual([403, timeTrackingMessages.ownOnly]);
    expect(
      (
        await t.app.inject({
          url: `/api/time-tracking/people?orgId=${a.org.id}`,
          headers: b.manager.jar.headers(),
        })
      ).statusCode,
    ).toBe(403);
  });
});
