import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { bookings, notificationOutbox } from '@platform/schema/db';
import { addMembership, insertTestUser } from '../testing/auth-fixtures.ts';
import { drainJobs, settledEmailsTo } from '../testing/job-fixtures.ts';
import { insertOccurrence } from '../testing/schedule-fixtures.ts';
import {
  booking,
  pushNewAs,
  seedSyncOrg,
  waitForVisibility,
  type Person,
} from '../testing/sync-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { queueBookingReminders } from './booking-notice.service.ts';

/**
 * Issue 16: people hear about their bookings by email and push — a place from the waitlist, a
 * class cancelled, a reminder the day before — as their notification preferences allow, and
 * a child without an address through their guardian.
 */
describe('booking notices on PostgreSQL and PGlite', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;
  const kind = process.env.DATABASE_URL ? 'postgres' : 'pglite';

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await seedSyncOrg(t.app, t.db);
  });
  afterAll(async () => t?.close());

  const pushNew = (who: Person, docs: object[]) => pushNewAs(t, who, 'bookings', docs);
  const pushes = async (userIds: string[]) =>
    await t.db.select().from(notificationOutbox).where(inArray(notificationOutbox.userId, userIds));

  it('tells the person promoted from the waitlist, and a child’s guardian for the child', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, {
      capacity: 1,
      title: 'Climbing',
    });
    const first = booking(a.org.id, a.otherCustomerId, { occurrenceId: occurrence.id });
    const child = booking(a.org.id, a.childId, { occurrenceId: occurrence.id, joinWaitlist: true });
    await pushNew(a.manager, [first]);
    await pushNew(a.manager, [child]);
    await waitForVisibility(t.db);
    const pulled = await t.app.inject({
      method: 'GET',
      url: '/api/sync/bookings/pull',
      headers: a.manager.jar.headers(),
    });
    const master = pulled.json().documents.find((d: { id: string }) => d.id === first.id);
    await t.app.inject({
      method: 'POST',
      url: '/api/sync/bookings/push',
      headers: a.manager.jar.headers(),
      payload: [
        {
          assumedMasterState: master,
          newDocumentState: { ...master, status: 'cancelled', updatedAt: new Date().toISOString() },
        },
      ],
    });
    const [row] = await t.db.select().from(bookings).where(eq(bookings.id, child.id));
    expect(row?.status).toBe('booked');
    await drainJobs(t.app);
    // The child has no address: the parent is emailed about the child's place.
    const mails = await settledEmailsTo(t.db, a.parent.email);
    expect(mails.some((m) => m.subject === 'You have a place in Climbing (for Kid User)')).toBe(
      true,
    );
    const notices = await pushes([a.parent.id]);
    expect(notices.some((n) => n.title === 'A place opened up')).toBe(true);
  });

  it('respects a person who turned booking notices off, and tells everyone when a class is cancelled', async () => {
    const quiet = await insertTestUser(t.db, {
      attributes: {
        notificationPreferences: { bookings: false, payments: true, announcements: true },
      },
    });
    const keen = await insertTestUser(t.db);
    for (const user of [quiet, keen]) await addMembership(t.db, user.id, a.org.id, 'customer');
    const { occurrence } = await insertOccurrence(t.db, a.org.id, { title: 'Pilates' });
    await pushNew(a.manager, [
      booking(a.org.id, quiet.id, { occurrenceId: occurrence.id }),
      booking(a.org.id, keen.id, { occurrenceId: occurrence.id }),
    ]);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/schedule/occurrences/${occurrence.id}`,
      headers: a.manager.jar.headers(),
      payload: { cancelled: true },
    });
    expect(res.statusCode).toBe(200);
    await drainJobs(t.app);
    const keenMails = await settledEmailsTo(t.db, keen.email!);
    expect(keenMails.map((m) => m.subject)).toContainEqual(
      expect.stringMatching(/^Pilates on .* is cancelled$/),
    );
    expect(await settledEmailsTo(t.db, quiet.email!)).toEqual([]);
    expect(await pushes([quiet.id])).toEqual([]);
    expect((await pushes([keen.id])).map((n) => n.title)).toContain('Class cancelled');
  });

  it('reminds each place once, however many servers run the cron at once', async () => {
    const soon = new Date(Date.now() + 3 * 3_600_000);
    const { occurrence } = await insertOccurrence(t.db, a.org.id, {
      title: 'Spin',
      startsAt: soon,
      cancelBy: soon,
    });
    const person = await insertTestUser(t.db);
    await addMembership(t.db, person.id, a.org.id, 'customer');
    await pushNew(a.manager, [booking(a.org.id, person.id, { occurrenceId: occurrence.id })]);
    const runs = await Promise.all([1, 2, 3, 4].map(() => queueBookingReminders(t.db, t.app.jobs)));
    expect(runs.reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(1);
    await drainJobs(t.app);
    const reminders = (await settledEmailsTo(t.db, person.email!)).filter((m) =>
      m.subject.startsWith('Reminder: Spin'),
    );
    expect(reminders).toHaveLength(1);
    expect(await queueBookingReminders(t.db, t.app.jobs)).toBe(0);
  });
});
