import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { pushNewAs, seedSyncOrg, timeEntry } from '../testing/sync-fixtures.ts';

/**
 * Issue 12 / decision 0040: a stored entry that cannot be a document (written around the app
 * with SQL, or before the time range existed) is skipped and counted by the REST reads too —
 * the list and the payroll export answered 500 for the whole organisation before.
 */
describe.each(testDatabaseKinds)('REST reads past unreadable time entries on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;
  const readable = () =>
    timeEntry(a.org.id, a.staff.id, {
      startTime: '2026-11-20T09:00:00.000Z',
      endTime: '2026-11-20T09:30:00.000Z',
      updatedAt: '2026-11-20T09:30:00.000Z',
    });
  let good: ReturnType<typeof readable>;

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await seedSyncOrg(t.app, t.db);
    good = readable();
    expect((await pushNewAs(t, a.staff, 'time-entries', [good])).statusCode).toBe(200);
    const insertRaw = (start: string, end: string, updatedAt: string) =>
      t.db.execute(
        sql`insert into time_entries (id, org_id, user_id, start_time, end_time, updated_at)
            values (${randomUUID()}, ${a.org.id}, ${a.staff.id}, ${start}::timestamptz,
                    ${end}::timestamptz, ${updatedAt}::timestamptz)`,
      );
    // The same day: an end that is no instant, and a change stamp in year 1.
    await insertRaw('2026-11-20T10:00:00Z', 'infinity', '2026-11-20T10:00:00Z');
    await insertRaw('2026-11-20T11:00:00Z', '2026-11-20T12:00:00Z', '0001-01-01T00:00:00Z');
  });
  afterAll(() => t.close());

  const unreadableCount = async () => {
    const metrics = await t.app.inject({ url: '/metrics' });
    const line = /sync_unreadable_rows_total\{collection="time-entries"\} (\d+)/.exec(metrics.body);
    return Number(line?.[1] ?? 0);
  };

  it('lists the readable entries and counts the others', async () => {
    const before = await unreadableCount();
    const listed = await t.app.inject({
      method: 'POST',
      url: '/api/time-tracking',
      headers: a.manager.jar.headers(),
      payload: { action: 'get-time-entries', orgId: a.org.id, userId: 'all' },
    });
    expect(listed.statusCode).toBe(200);
    const { _deleted, ...doc } = good;
    void _deleted;
    expect(listed.json()).toEqual({ entries: [doc] });
    expect(await unreadableCount()).toBe(before + 2);
  });

  it('exports the readable entries of the day and counts the others', async () => {
    const before = await unreadableCount();
    const exported = await t.app.inject({
      url: `/api/time-tracking/export.csv?${new URLSearchParams({
        orgId: a.org.id,
        from: '2026-11-20',
        to: '2026-11-20',
      })}`,
      headers: a.manager.jar.headers(),
    });
    expect(exported.statusCode).toBe(200);
    const lines = exported.body
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);
    // The header and the one readable entry.
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('2026-11-20');
    expect(lines[1]?.endsWith(',0.50')).toBe(true);
    expect(await unreadableCount()).toBe(before + 2);
  });
});
