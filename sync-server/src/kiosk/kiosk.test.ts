import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLog, kioskDevices, memberships, timeEntries, users } from '@platform/schema/db';
import { loginMessages } from '@platform/schema/auth/auth.messages';
import { kioskMessages } from '@platform/schema/kiosk/kiosk.messages';
import { kioskSchema } from '@platform/schema/kiosk/kiosk.zod';
import { mergeTimeEntries } from '@platform/schema/time-tracking/time-entry.conflict';
import { hashToken } from '../auth/tokens.ts';
import { signInLimits } from '../auth/sign-in-limits.ts';
import { TEST_PASSWORD } from '../testing/auth-fixtures.ts';
import { CookieJar } from '../testing/cookie-jar.ts';
import { changeOf, openSse } from '../testing/sse-client.ts';
import { createTestApp, listenOnLoopback } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { seedSyncOrg, timeEntry, waitForVisibility } from '../testing/sync-fixtures.ts';
import { KIOSK_COOKIE } from './kiosk-credential.ts';
import { asKiosk, newManager, requestStart, startTestKiosk } from './kiosk.fixtures.ts';

const someAddress = () =>
  `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

describe.each(testDatabaseKinds)('kiosk mode on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;
  let b: Awaited<ReturnType<typeof seedSyncOrg>>;

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await seedSyncOrg(t.app, t.db);
    b = await seedSyncOrg(t.app, t.db);
  });
  afterAll(() => t.close());

  const kiosksOf = (orgId: string) =>
    t.db.select().from(kioskDevices).where(eq(kioskDevices.orgId, orgId));
  const pull = async (
    jar: CookieJar,
    collection: string,
    headers: Record<string, string> = asKiosk(jar),
  ) => {
    await waitForVisibility(t.db);
    return t.app.inject({ method: 'GET', url: `/api/sync/${collection}/pull`, headers });
  };
  const push = (
    jar: CookieJar,
    rows: Array<{ assumedMasterState: unknown; newDocumentState: unknown }>,
  ) =>
    t.app.inject({
      method: 'POST',
      url: '/api/sync/time-entries/push',
      headers: asKiosk(jar),
      payload: rows,
    });

  describe('starting (POST /api/kiosk/start)', () => {
    it('needs a session, the manage-kiosk claim, and the organisation the session is in', async () => {
      expect((await requestStart(t.app, null, a.org.id)).statusCode).toBe(401);
      // Tracks only their own time: no claim to start a kiosk.
      expect((await requestStart(t.app, a.staff, a.org.id)).statusCode).toBe(403);
      expect((await requestStart(t.app, a.parent, a.org.id)).statusCode).toBe(403);
      // A manager of a, signed in to a, asking for b.
      expect((await requestStart(t.app, a.manager, b.org.id)).statusCode).toBe(403);
      expect(await kiosksOf(b.org.id)).toEqual([]);
      // None of those ended a session.
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/me', headers: a.manager.jar.headers() }))
          .statusCode,
      ).toBe(200);
    });

    it('signs the staff member out on this device and gives it a kiosk credential instead', async () => {
      const starter = await newManager(t.app, t.db, a.org.id);
      const response = await requestStart(t.app, starter, a.org.id);
      expect(response.statusCode).toBe(200);
      const kiosk = kioskSchema.parse(response.json());
      expect(kiosk.org).toMatchObject({ id: a.org.id, label: a.org.label });
      expect(kiosk.startedBy.id).toBe(starter.id);
      // Staff who track time, by name only; customers never.
      const listed = kiosk.staff.map((person) => person.userId);
      expect(listed).toEqual(expect.arrayContaining([a.manager.id, a.staff.id, starter.id]));
      expect(listed).not.toContain(a.parent.id);
      expect(listed).not.toContain(b.manager.id);
      expect(Object.keys(kiosk.staff[0] ?? {}).sort()).toEqual([
        'lockedUntil',
        'name',
        'pin',
        'userId',
      ]);

      const cookie = response.cookies.find((c) => c.name === KIOSK_COOKIE);
      expect(cookie).toMatchObject({ httpOnly: true, path: '/api', sameSite: 'Lax' });
      const cleared = response.cookies.filter(
        (c) => c.name === 'access_token' || c.name === 'refresh_token',
      );
      expect(cleared.map((c) => c.value)).toEqual(['', '']);
      // The old session is over, even for a copy of its cookies.
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/me', headers: starter.jar.headers() }))
          .statusCode,
      ).toBe(401);

      const [row] = await t.db.select().from(kioskDevices).where(eq(kioskDevices.id, kiosk.id));
      expect(row?.tokenHash).toBe(hashToken(cookie?.value ?? ''));
      expect(JSON.stringify(row)).not.toContain(cookie?.value);
      const trail = await t.db.select().from(auditLog).where(eq(auditLog.actorUserId, starter.id));
      expect(trail.map((e) => e.action)).toEqual(['kiosk-started']);
    });

    it('refuses a staff member without a password, who could never leave it', async () => {
      const starter = await newManager(t.app, t.db, a.org.id);
      await t.db.update(users).set({ passwordHash: null }).where(eq(users.id, starter.id));
      const response = await requestStart(t.app, starter, a.org.id);
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe(kioskMessages.startNeedsPassword);
    });
  });

  describe('the kiosk credential', () => {
    it('is refused everywhere except the kiosk’s own routes and its replication of time entries, bookings and class times', async () => {
      const { jar } = await startTestKiosk(t.app, t.db, a.org.id);
      const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
        t.app.inject({ method, url, headers: asKiosk(jar), ...(payload ? { payload } : {}) });
      expect((await call('GET', '/api/kiosk')).statusCode).toBe(200);
      expect((await call('GET', '/api/me')).statusCode).toBe(401);
      expect((await call('POST', '/api/guardians', { action: 'get-guardians' })).statusCode).toBe(
        401,
      );
      expect(
        (await call('POST', '/api/time-tracking', { action: 'clock-in', orgId: a.org.id }))
          .statusCode,
      ).toBe(401);
      expect(
        (
          await call('POST', '/api/time-tracking', {
            action: 'get-time-entries',
            orgId: a.org.id,
            userId: 'all',
          })
        ).statusCode,
      ).toBe(401);
      expect((await call('GET', '/api/kiosk/pin')).statusCode).toBe(401);
      expect((await call('PUT', '/api/kiosk/pin', { pin: '1234' })).statusCode).toBe(401);
      expect((await call('POST', '/api/kiosk/start', { orgId: a.org.id })).statusCode).toBe(401);
      for (const collection of [
        'roster',
        'org-branding',
        'customer-notes',
        'classes',
        'products',
        'purchases',
      ]) {
        expect((await pull(jar, collection)).statusCode, collection).toBe(403);
      }
      // Clock moves, and check-ins to the class on now (kiosk-checkins.test.ts).
      for (const collection of ['time-entries', 'bookings', 'occurrences'])
        expect((await pull(jar, collection)).statusCode, collection).toBe(200);
      // Without the kiosk header a request is a person's, and there is no session here.
      expect((await pull(jar, 'time-entries', jar.headers())).statusCode).toBe(401);
      // Nor does a session stand in for a kiosk.
      expect((await pull(a.manager.jar, 'time-entries', asKiosk(a.manager.jar))).statusCode).toBe(
        401,
      );
    });

    it('replicates its own organisation’s time entries and no other', async () => {
      const { jar } = await startTestKiosk(t.app, t.db, a.org.id);
      const ours = timeEntry(a.org.id, a.manager.id, {
        startTime: '2026-11-20T08:00:00.000Z',
        endTime: '2026-11-20T16:00:00.000Z',
      });
      const theirs = timeEntry(b.org.id, b.manager.id);
      for (const [who, doc] of [
        [a.manager, ours],
        [b.manager, theirs],
      ] as const) {
        const response = await t.app.inject({
          method: 'POST',
          url: '/api/sync/time-entries/push',
          headers: who.jar.headers(),
          payload: [{ assumedMasterState: null, newDocumentState: doc }],
        });
        expect(response.json()).toEqual([]);
      }
      const ids = (await pull(jar, 'time-entries'))
        .json()
        .documents.map((d: { id: string }) => d.id);
      expect(ids).toContain(ours.id);
      expect(ids).not.toContain(theirs.id);
    });

    it('pushes clock moves of the organisation’s staff with their own times, and nothing else', async () => {
      const { jar } = await startTestKiosk(t.app, t.db, a.org.id);
      const clockIn = timeEntry(a.org.id, a.staff.id, {
        startTime: '2026-11-21T08:02:00.000Z',
        updatedAt: '2026-11-21T08:02:00.000Z',
      });
      expect(
        (await push(jar, [{ assumedMasterState: null, newDocumentState: clockIn }])).json(),
      ).toEqual([]);
      const clockOut = {
        ...clockIn,
        endTime: '2026-11-21T16:00:00.000Z',
        updatedAt: '2026-11-21T16:00:00.000Z',
      };
      expect(
        (await push(jar, [{ assumedMasterState: clockIn, newDocumentState: clockOut }])).json(),
      ).toEqual([]);
      const [stored] = await t.db.select().from(timeEntries).where(eq(timeEntries.id, clockIn.id));
      expect(stored?.startTime.toISOString()).toBe('2026-11-21T08:02:00.000Z');
      expect(stored?.endTime?.toISOString()).toBe('2026-11-21T16:00:00.000Z');

      const refused = async (assumed: unknown, next: object) => {
        const response = await push(jar, [{ assumedMasterState: assumed, newDocumentState: next }]);
        expect(response.statusCode).toBe(422);
        return response.json().errors[0].message as string;
      };
      expect(await refused(clockOut, { ...clockOut, _deleted: true })).toBe(
        kioskMessages.clockMovesOnly,
      );
      expect(await refused(clockOut, { ...clockOut, startTime: '2026-11-21T06:00:00.000Z' })).toBe(
        kioskMessages.clockMovesOnly,
      );
      expect(await refused(null, timeEntry(a.org.id, a.parent.id))).toBe(
        kioskMessages.notAtThisKiosk,
      );
      expect(await refused(null, timeEntry(a.org.id, b.manager.id))).toBe(
        kioskMessages.notAtThisKiosk,
      );
      expect(await refused(null, timeEntry(b.org.id, b.manager.id))).toBe(
        'This document does not belong to you or to this organization.',
      );
      const [unchanged] = await t.db
        .select()
        .from(timeEntries)
        .where(eq(timeEntries.id, clockIn.id));
      expect(unchanged).toMatchObject({ deleted: false, startTime: stored?.startTime });
    });

    it('converges with another kiosk that clocked the same person out while both were offline', async () => {
      const first = await startTestKiosk(t.app, t.db, a.org.id);
      const second = await startTestKiosk(t.app, t.db, a.org.id);
      const running = timeEntry(a.org.id, a.manager.id, {
        startTime: '2026-11-18T08:00:00.000Z',
        updatedAt: '2026-11-18T08:00:00.000Z',
      });
      expect(
        (await push(first.jar, [{ assumedMasterState: null, newDocumentState: running }])).json(),
      ).toEqual([]);
      // Both had the running entry; each clocks out offline, the second one later.
      const outAt = (time: string) => ({ ...running, endTime: time, updatedAt: time });
      const early = outAt('2026-11-18T16:00:00.000Z');
      const late = outAt('2026-11-18T16:10:00.000Z');
      expect(
        (await push(first.jar, [{ assumedMasterState: running, newDocumentState: early }])).json(),
      ).toEqual([]);
      const conflict = await push(second.jar, [
        { assumedMasterState: running, newDocumentState: late },
      ]);
      const [master] = conflict.json();
      expect(master).toEqual(early);
      // The device resolves by the shared rule (latest clock-out) and pushes again.
      const merged = mergeTimeEntries(master, late);
      expect(
        (await push(second.jar, [{ assumedMasterState: master, newDocumentState: merged }])).json(),
      ).toEqual([]);
      const [stored] = await t.db.select().from(timeEntries).where(eq(timeEntries.id, running.id));
      expect(stored?.startTime.toISOString()).toBe('2026-11-18T08:00:00.000Z');
      expect(stored?.endTime?.toISOString()).toBe('2026-11-18T16:10:00.000Z');
    });

    it('hears of its organisation’s time-entry changes on the live stream', async () => {
      const { jar } = await startTestKiosk(t.app, t.db, a.org.id);
      const base = await listenOnLoopback(t.app);
      const stream = await openSse(
        `${base}/api/sync/stream`,
        asKiosk(jar) as Record<string, string>,
      );
      try {
        await stream.next((event) => event.event === 'resync');
        const doc = timeEntry(a.org.id, a.staff.id, {
          startTime: '2026-11-19T08:00:00.000Z',
          endTime: '2026-11-19T09:00:00.000Z',
        });
        await push(jar, [{ assumedMasterState: null, newDocumentState: doc }]);
        await stream.next(changeOf('time-entries'), 5000);
      } finally {
        stream.close();
      }
    });

    it('ends when its starter loses the manage-kiosk claim', async () => {
      const { jar, starter } = await startTestKiosk(t.app, t.db, a.org.id);
      await t.db
        .update(memberships)
        .set({ claims: ['manage-own-time-tracking'] })
        .where(and(eq(memberships.userId, starter.id), eq(memberships.orgId, a.org.id)));
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/kiosk',
        headers: asKiosk(jar),
      });
      expect(response.statusCode).toBe(401);
      expect(response.json().message).toBe(kioskMessages.kioskEnded);
      expect((await pull(jar, 'time-entries')).statusCode).toBe(401);
    });
  });

  describe('leaving (POST /api/kiosk/leave)', () => {
    const leave = (jar: CookieJar, password: string, remoteAddress = someAddress()) =>
      t.app.inject({
        method: 'POST',
        url: '/api/kiosk/leave',
        headers: asKiosk(jar),
        payload: { password },
        remoteAddress,
      });

    it('needs the starter’s password; then the credential is revoked and cleared', async () => {
      const { jar, kiosk, starter } = await startTestKiosk(t.app, t.db, a.org.id);
      const wrong = await leave(jar, 'not-the-password');
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json().message).toBe(kioskMessages.wrongPassword);
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/kiosk', headers: asKiosk(jar) }))
          .statusCode,
      ).toBe(200);

      const right = await leave(jar, TEST_PASSWORD);
      expect(right.statusCode).toBe(204);
      expect(right.cookies.find((c) => c.name === KIOSK_COOKIE)?.value).toBe('');
      // Even a copy of the old credential is refused now.
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/kiosk', headers: asKiosk(jar) }))
          .statusCode,
      ).toBe(401);
      const [row] = await t.db.select().from(kioskDevices).where(eq(kioskDevices.id, kiosk.id));
      expect(row?.revokedAt).toBeInstanceOf(Date);
      const trail = await t.db.select().from(auditLog).where(eq(auditLog.actorUserId, starter.id));
      expect(trail.map((e) => e.action).sort()).toEqual(['kiosk-left', 'kiosk-started']);
    });

    it('is not held up by a stranger’s failed log-ins for the starter elsewhere', async () => {
      const { jar, starter } = await startTestKiosk(t.app, t.db, a.org.id);
      for (let i = 0; i < 100; i++)
        await t.app.inject({
          method: 'POST',
          url: '/auth/login',
          payload: { identifier: starter.email, password: `guess-${i}` },
          remoteAddress: '203.0.113.9',
        });
      expect((await leave(jar, TEST_PASSWORD, '198.51.100.7')).statusCode).toBe(204);
    });

    it('is limited like log-in, sharing its count: after five wrong passwords there the kiosk waits, the right one included', async () => {
      const { jar, starter } = await startTestKiosk(t.app, t.db, a.org.id);
      const address = someAddress();
      for (let i = 1; i < signInLimits.perAccountAtAddress.waitAfter; i++)
        expect((await leave(jar, `wrong-${i}`, address)).statusCode).toBe(403);
      const atLogIn = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { identifier: starter.email, password: 'wrong-at-the-log-in-page' },
        remoteAddress: address,
      });
      expect(atLogIn.statusCode).toBe(401);
      const blocked = await leave(jar, TEST_PASSWORD, address);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().message).toBe(loginMessages.tooManyAttempts);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/kiosk', headers: asKiosk(jar) }))
          .statusCode,
      ).toBe(200);
    });

    it('needs a kiosk credential', async () => {
      expect((await leave(a.manager.jar, TEST_PASSWORD)).statusCode).toBe(401);
      expect((await leave(new CookieJar(), TEST_PASSWORD)).statusCode).toBe(401);
    });
  });
});
