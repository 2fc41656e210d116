import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { bookings, classOccurrences } from '@platform/schema/db';
import type { BookingDoc } from '@platform/schema/bookings/booking.zod';
import { kioskMessages } from '@platform/schema/kiosk/kiosk.messages';
import { syncMessages } from '@platform/schema/sync/sync.messages';
import { insertBookedPlace } from '../testing/booking-fixtures.ts';
import type { CookieJar } from '../testing/cookie-jar.ts';
import { insertOccurrence } from '../testing/schedule-fixtures.ts';
import { booking, seedSyncOrg, waitForVisibility } from '../testing/sync-fixtures.ts';
import { changeOf, openSse } from '../testing/sse-client.ts';
import { createTestApp, listenOnLoopback } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { asKiosk, startTestKiosk } from './kiosk.fixtures.ts';

type Doc = BookingDoc & { _deleted: boolean };
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Issue 16: people are checked in to a class at the front-desk kiosk, also offline. The kiosk
 * replicates the organisation's current bookings (class times still to come or ended less
 * than a day ago) and may push nothing but check-ins — and undo a mistaken tap.
 */
describe.each(testDatabaseKinds)('class check-in at the kiosk on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;
  let b: Awaited<ReturnType<typeof seedSyncOrg>>;
  let kioskOfA: CookieJar;
  let kioskOfB: CookieJar;

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await seedSyncOrg(t.app, t.db);
    b = await seedSyncOrg(t.app, t.db);
    kioskOfA = (await startTestKiosk(t.app, t.db, a.org.id)).jar;
    kioskOfB = (await startTestKiosk(t.app, t.db, b.org.id)).jar;
  });
  afterAll(() => t?.close());

  const pull = async (headers: Record<string, string>, collection = 'bookings') => {
    await waitForVisibility(t.db);
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/sync/${collection}/pull?batchSize=1000`,
      headers,
    });
    expect(response.statusCode).toBe(200);
    return response.json().documents as Doc[];
  };
  const pushAsKiosk = (jar: CookieJar, assumed: Doc | null, next: object) =>
    t.app.inject({
      method: 'POST',
      url: '/api/sync/bookings/push',
      headers: asKiosk(jar),
      payload: [{ assumedMasterState: assumed, newDocumentState: next }],
    });
  const refusalOf = async (jar: CookieJar, assumed: Doc | null, next: object) => {
    const response = await pushAsKiosk(jar, assumed, next);
    expect(response.statusCode, response.body).toBe(422);
    return response.json().errors[0].message as string;
  };
  const stored = async (id: string) =>
    (await t.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;

  /** A class time of `a` starting `startsIn` from now (an hour long), with the parent booked. */
  async function parentBookedOn(startsIn: number, title = 'Spin') {
    const { occurrence } = await insertOccurrence(t.db, a.org.id, {
      startsAt: new Date(Date.now() + startsIn),
      title,
    });
    const row = await insertBookedPlace(t.db, {
      orgId: a.org.id,
      occurrenceId: occurrence.id,
      customerUserId: a.parent.id,
      customerName: 'Pat Parent',
    });
    const master = (await pull(asKiosk(kioskOfA))).find((doc) => doc.id === row.id);
    if (!master) throw new Error('the kiosk did not pull the booking');
    return { occurrence, master };
  }
  const tap = (master: Doc, at = Date.now() - MINUTE): Doc => ({
    ...master,
    status: 'attended',
    checkedInAt: iso(at),
    updatedAt: iso(at),
  });

  it('checks a booked person in, at the time of the tap, and undoes a mistaken tap', async () => {
    const { master } = await parentBookedOn(-10 * MINUTE);
    expect(master).toMatchObject({ status: 'booked', customerName: 'Pat Parent' });
    // Tapped a while ago while offline, sent now: the tap's own time stands.
    const tapAt = Date.now() - 5 * MINUTE;
    const tapped = tap(master, tapAt);
    expect((await pushAsKiosk(kioskOfA, master, tapped)).json()).toEqual([]);
    const row = await stored(master.id);
    expect(row).toMatchObject({ status: 'attended', customerUserId: a.parent.id });
    expect(row.checkedInAt?.toISOString()).toBe(iso(tapAt));

    const asPulled = (await pull(asKiosk(kioskOfA))).find((doc) => doc.id === master.id)!;
    expect(asPulled.checkedInAt).toBe(iso(tapAt));
    const undo = { ...asPulled, status: 'booked', checkedInAt: null, updatedAt: iso(Date.now()) };
    expect((await pushAsKiosk(kioskOfA, asPulled, undo)).json()).toEqual([]);
    expect(await stored(master.id)).toMatchObject({ status: 'booked', checkedInAt: null });
  });

  it('refuses a new booking, a cancellation, a deletion and another person', async () => {
    const { occurrence, master } = await parentBookedOn(-10 * MINUTE);
    const fresh = booking(a.org.id, a.parent.id, {
      occurrenceId: occurrence.id,
      requestedAt: iso(Date.now()),
      updatedAt: iso(Date.now()),
    });
    expect(await refusalOf(kioskOfA, null, fresh)).toBe(kioskMessages.checkInsOnly);
    expect(await refusalOf(kioskOfA, null, { ...fresh, status: 'attended' })).toBe(
      kioskMessages.checkInsOnly,
    );
    const now = iso(Date.now());
    expect(
      await refusalOf(kioskOfA, master, { ...master, status: 'cancelled', updatedAt: now }),
    ).toBe(kioskMessages.checkInsOnly);
    expect(await refusalOf(kioskOfA, master, { ...master, _deleted: true, updatedAt: now })).toBe(
      kioskMessages.checkInsOnly,
    );
    expect(
      await refusalOf(kioskOfA, master, { ...tap(master), customerUserId: a.otherCustomerId }),
    ).toBe(kioskMessages.checkInsOnly);
    expect(
      await refusalOf(kioskOfA, master, { ...tap(master), customerName: 'Someone Else' }),
    ).toBe(kioskMessages.checkInsOnly);
    expect(await stored(master.id)).toMatchObject({
      status: 'booked',
      customerUserId: a.parent.id,
      deleted: false,
    });
    expect(await t.db.select().from(bookings).where(eq(bookings.id, fresh.id))).toEqual([]);
  });

  it('refuses a class of tomorrow, one not open yet, and a cancelled class', async () => {
    const tomorrow = await parentBookedOn(24 * HOUR);
    expect(await refusalOf(kioskOfA, tomorrow.master, tap(tomorrow.master))).toBe(
      kioskMessages.checkInClosed,
    );
    const later = await parentBookedOn(2 * HOUR);
    expect(await refusalOf(kioskOfA, later.master, tap(later.master))).toBe(
      kioskMessages.checkInClosed,
    );
    // Open an hour ahead: the same class, checked in 30 minutes before it starts.
    const soon = await parentBookedOn(30 * MINUTE);
    expect((await pushAsKiosk(kioskOfA, soon.master, tap(soon.master))).json()).toEqual([]);

    // The class was cancelled while the kiosk's copy still shows it on.
    const cancelled = await parentBookedOn(-10 * MINUTE);
    await t.db
      .update(classOccurrences)
      .set({ status: 'cancelled' })
      .where(eq(classOccurrences.id, cancelled.occurrence.id));
    expect(await refusalOf(kioskOfA, cancelled.master, tap(cancelled.master))).toBe(
      kioskMessages.checkInClassCancelled,
    );
    for (const { master } of [tomorrow, later, cancelled])
      expect(await stored(master.id)).toMatchObject({ status: 'booked', checkedInAt: null });
  });

  it('keeps organisations apart: another kiosk sees none of the bookings and cannot check anyone in', async () => {
    const { master } = await parentBookedOn(-10 * MINUTE);
    const theirs = await pull(asKiosk(kioskOfB));
    expect(theirs.filter((doc) => doc.orgId === a.org.id)).toEqual([]);
    expect(theirs.map((doc) => doc.id)).not.toContain(master.id);
    expect(await refusalOf(kioskOfB, master, tap(master))).toBe(
      'This document does not belong to you or to this organization.',
    );
    // Dressed up as its own organisation's booking, it names one out of reach.
    expect(await refusalOf(kioskOfB, null, { ...tap(master), orgId: b.org.id })).toBe(
      syncMessages.notAmongYours,
    );
    expect(await stored(master.id)).toMatchObject({ status: 'booked', orgId: a.org.id });
    // Nor does it see the other organisation's timetable.
    const timetable = await pull(asKiosk(kioskOfB), 'occurrences');
    expect(timetable.filter((doc) => doc.orgId === a.org.id)).toEqual([]);
  });

  it('pulls only current bookings: class times still to come or ended less than a day ago', async () => {
    const insertBooked = async (startsAt: Date) => {
      const { occurrence } = await insertOccurrence(t.db, a.org.id, { startsAt });
      return insertBookedPlace(t.db, {
        orgId: a.org.id,
        occurrenceId: occurrence.id,
        customerUserId: a.parent.id,
        at: new Date(startsAt.getTime() - 7 * 24 * HOUR),
      });
    };
    const yearsAgo = await insertBooked(new Date(Date.now() - 2 * 365 * 24 * HOUR));
    // Ended 25 hours ago (an hour long), and ended 23 hours ago.
    const dayAndMore = await insertBooked(new Date(Date.now() - 26 * HOUR));
    const yesterday = await insertBooked(new Date(Date.now() - 24 * HOUR));
    const nextMonth = await insertBooked(new Date(Date.now() + 30 * 24 * HOUR));
    // A booking naming a class time of another organisation (its id), never ours to see.
    const { occurrence: elsewhere } = await insertOccurrence(t.db, b.org.id);
    const astray = await insertBookedPlace(t.db, {
      orgId: a.org.id,
      occurrenceId: elsewhere.id,
      customerUserId: a.parent.id,
    });

    const atKiosk = (await pull(asKiosk(kioskOfA))).map((doc) => doc.id);
    expect(atKiosk).toEqual(expect.arrayContaining([yesterday.id, nextMonth.id]));
    expect(atKiosk).not.toContain(yearsAgo.id);
    expect(atKiosk).not.toContain(dayAndMore.id);
    expect(atKiosk).not.toContain(astray.id);
    // Staff who manage the schedule still replicate every booking.
    const atDesk = (await pull(a.manager.jar.headers())).map((doc) => doc.id);
    expect(atDesk).toEqual(expect.arrayContaining([yearsAgo.id, dayAndMore.id, yesterday.id]));

    // Nor may the kiosk check anyone in to them, whatever time its clock says it is.
    const [old] = (await pull(a.manager.jar.headers())).filter((doc) => doc.id === yearsAgo.id);
    const thenAt = Date.now() - 2 * 365 * 24 * HOUR + 5 * MINUTE;
    expect(await refusalOf(kioskOfA, old!, tap(old!, thenAt))).toBe(syncMessages.notAmongYours);
    expect(await stored(yearsAgo.id)).toMatchObject({ status: 'booked' });
  });

  it('pulls the timetable read-only', async () => {
    const { occurrence } = await insertOccurrence(t.db, a.org.id);
    const timetable = await pull(asKiosk(kioskOfA), 'occurrences');
    expect(timetable.map((doc) => doc.id)).toContain(occurrence.id);
    const doc = timetable.find((d) => d.id === occurrence.id)!;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/sync/occurrences/push',
      headers: asKiosk(kioskOfA),
      payload: [{ assumedMasterState: doc, newDocumentState: { ...doc, title: 'Ours now' } }],
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    const [row] = await t.db
      .select()
      .from(classOccurrences)
      .where(eq(classOccurrences.id, occurrence.id));
    expect(row?.title).toBe('Spin');
  });

  it('refuses a check-in to a booking the kiosk names by a made-up id', async () => {
    const { master } = await parentBookedOn(-10 * MINUTE);
    const id = randomUUID();
    expect(await refusalOf(kioskOfA, { ...master, id }, { ...tap(master), id })).toBe(
      syncMessages.notAmongYours,
    );
  });

  it('hears of check-ins on the live stream, as of clock moves', async () => {
    const { master } = await parentBookedOn(-10 * MINUTE);
    const other = await startTestKiosk(t.app, t.db, a.org.id);
    const base = await listenOnLoopback(t.app);
    const stream = await openSse(
      `${base}/api/sync/stream`,
      asKiosk(other.jar) as Record<string, string>,
    );
    try {
      await stream.next((event) => event.event === 'resync');
      expect((await pushAsKiosk(kioskOfA, master, tap(master))).json()).toEqual([]);
      await stream.next(changeOf('bookings'), 5000);
    } finally {
      stream.close();
    }
  });
});
