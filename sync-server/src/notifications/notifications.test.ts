import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { notificationOutbox, notificationTokens, sessions } from '@platform/schema/db';
import { notificationMessages } from '@platform/schema/notifications/notifications.messages';
import {
  notificationConfigSchema,
  testNoticeAnswerSchema,
} from '@platform/schema/notifications/notifications.zod';
import { WebPushNotifier } from '../adapters/notifier/web-push.ts';
import { insertTestUser, logInAs } from '../testing/auth-fixtures.ts';
import { drainJobs, waitFor } from '../testing/job-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { seedSyncOrg, type Person } from '../testing/sync-fixtures.ts';
import { MAX_DEVICES_PER_USER } from './notification-tokens.repository.ts';

const fcmToken = (label: string) => `fcm-token-${label}-${Math.random().toString(36).slice(2)}`;
const webPushEndpoint = (label: string) => `https://fcm.googleapis.com/fcm/send/${label}`;
const webPushKeys = {
  p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
  auth: 'tBHItJI5svbpez7KI4CCXg',
};

describe.each(testDatabaseKinds)('POST /api/notifications on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;

  const call = (who: Person | { jar: Person['jar'] } | null, body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/notifications',
      headers: who?.jar.headers() ?? {},
      payload: body,
    });
  const addToken = (
    who: { jar: Person['jar'] },
    deviceId: string,
    token: string,
    extra: Record<string, unknown> = {},
  ) => call(who, { action: 'add-notification-token', deviceId, token, ...extra });
  const tokensOf = (userId: string) =>
    t.db.select().from(notificationTokens).where(eq(notificationTokens.userId, userId));
  /** A person of their own with `sessions` separate sign-ins (devices). */
  const newPerson = async (sessionCount = 1) => {
    const user = await insertTestUser(t.db);
    const jars = [];
    for (let i = 0; i < sessionCount; i++) jars.push((await logInAs(t.app, user.email ?? '')).jar);
    return { id: user.id, jars };
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await seedSyncOrg(t.app, t.db);
  });
  afterAll(() => t.close());

  describe('device registrations', () => {
    it('stores one token per user and device, bound to the session that sent it', async () => {
      const me = await newPerson(2);
      const [phone, laptop] = me.jars as [Person['jar'], Person['jar']];
      const first = await addToken({ jar: phone }, 'device-phone-1', fcmToken('phone'));
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ success: true });
      await addToken({ jar: laptop }, 'device-laptop-1', webPushEndpoint('laptop'), {
        kind: 'webpush',
        keys: webPushKeys,
      });
      const rows = await tokensOf(me.id);
      expect(rows.map((row) => [row.deviceId, row.kind]).sort()).toEqual([
        ['device-laptop-1', 'webpush'],
        ['device-phone-1', 'fcm'],
      ]);
      expect(rows.find((row) => row.kind === 'webpush')?.keys).toEqual(webPushKeys);
      expect(new Set(rows.map((row) => row.sessionId)).size).toBe(2);
    });

    it('replaces the device’s token on re-registration and rebinds it to the current session', async () => {
      const me = await newPerson(2);
      const [before, after] = me.jars as [Person['jar'], Person['jar']];
      await addToken({ jar: before }, 'device-replace-1', fcmToken('old'));
      const newer = fcmToken('new');
      await addToken({ jar: after }, 'device-replace-1', newer);
      const rows = await tokensOf(me.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.token).toBe(newer);
      const [afterSession] = await t.db
        .select()
        .from(sessions)
        .where(eq(sessions.id, rows[0]?.sessionId ?? ''));
      expect(afterSession?.userId).toBe(me.id);
      // Someone who merely knows the token cannot take it over from another device id…
      const other = await newPerson();
      await addToken({ jar: other.jars[0]! }, 'device-other-1', newer);
      expect(await tokensOf(me.id)).toHaveLength(1);
      // …but on the same device (the same device id) the browser moves to the new person, and
      // their own row of that token under the other id goes (one browser, one row).
      await addToken({ jar: other.jars[0]! }, 'device-replace-1', newer);
      expect(await tokensOf(me.id)).toHaveLength(0);
      expect((await tokensOf(other.id)).map((row) => row.deviceId)).toEqual(['device-replace-1']);
    });

    it('remove-notification-token forgets that device only, and other people’s devices stay', async () => {
      const me = await newPerson();
      const other = await newPerson();
      const jar = me.jars[0]!;
      await addToken({ jar }, 'device-remove-1', fcmToken('one'));
      await addToken({ jar }, 'device-remove-2', fcmToken('two'));
      await addToken({ jar: other.jars[0]! }, 'device-remove-1', fcmToken('theirs'));
      const removed = await call(
        { jar },
        { action: 'remove-notification-token', deviceId: 'device-remove-1' },
      );
      expect(removed.json()).toEqual({ success: true });
      expect((await tokensOf(me.id)).map((row) => row.deviceId)).toEqual(['device-remove-2']);
      expect((await tokensOf(other.id)).map((row) => row.deviceId)).toEqual(['device-remove-1']);
    });

    it('signing out (by fetch or by the form) removes the tokens of that session only', async () => {
      const me = await newPerson(3);
      const [phone, laptop, tablet] = me.jars as [Person['jar'], Person['jar'], Person['jar']];
      const other = await newPerson();
      await addToken({ jar: phone }, 'device-out-phone', fcmToken('phone'));
      await addToken({ jar: laptop }, 'device-out-laptop', fcmToken('laptop'));
      await addToken({ jar: tablet }, 'device-out-tablet', fcmToken('tablet'));
      await addToken({ jar: other.jars[0]! }, 'device-out-other', fcmToken('other'));

      expect(
        (await t.app.inject({ method: 'POST', url: '/auth/logout', headers: phone.headers() }))
          .statusCode,
      ).toBe(204);
      expect((await tokensOf(me.id)).map((row) => row.deviceId).sort()).toEqual([
        'device-out-laptop',
        'device-out-tablet',
      ]);
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/auth/logout',
            headers: { ...tablet.headers(), 'content-type': 'application/x-www-form-urlencoded' },
            payload: '',
          })
        ).statusCode,
      ).toBe(303);
      expect((await tokensOf(me.id)).map((row) => row.deviceId)).toEqual(['device-out-laptop']);
      expect(await tokensOf(other.id)).toHaveLength(1);
    });

    it('keeps at most MAX_DEVICES_PER_USER devices, forgetting the longest unused', async () => {
      const me = await newPerson();
      const jar = me.jars[0]!;
      for (let i = 0; i <= MAX_DEVICES_PER_USER; i++)
        await addToken({ jar }, `device-cap-${i}`, fcmToken(`cap-${i}`));
      const devices = (await tokensOf(me.id)).map((row) => row.deviceId);
      expect(devices).toHaveLength(MAX_DEVICES_PER_USER);
      expect(devices).not.toContain('device-cap-0');
    });

    it('refuses Web Push subscriptions without keys, over http, or at an unknown push service', async () => {
      const jar = (await newPerson()).jars[0]!;
      const noKeys = await addToken({ jar }, 'device-bad-1', webPushEndpoint('x'), {
        kind: 'webpush',
      });
      expect(noKeys.statusCode).toBe(400);
      expect(noKeys.json().errors).toContainEqual({
        field: 'keys',
        message: notificationMessages.webPushKeysRequired,
      });
      const plain = await addToken(
        { jar },
        'device-bad-1',
        'http://fcm.googleapis.com/fcm/send/x',
        { kind: 'webpush', keys: webPushKeys },
      );
      expect(plain.json().errors).toContainEqual({
        field: 'token',
        message: notificationMessages.webPushEndpoint,
      });
      const internal = await addToken({ jar }, 'device-bad-1', 'https://169.254.169.254/latest', {
        kind: 'webpush',
        keys: webPushKeys,
      });
      expect(internal.statusCode).toBe(400);
      expect(internal.json().message).toBe(notificationMessages.unknownPushService);
      const lookalike = await addToken(
        { jar },
        'device-bad-1',
        'https://fcm.googleapis.com.evil.test/x',
        { kind: 'webpush', keys: webPushKeys },
      );
      expect(lookalike.statusCode).toBe(400);
      const shortId = await addToken({ jar }, 'x', fcmToken('short'));
      expect(shortId.statusCode).toBe(400);
    });

    it('needs a session', async () => {
      const res = await call(null, {
        action: 'add-notification-token',
        deviceId: 'device-anon-1',
        token: 't',
      });
      expect(res.statusCode).toBe(401);
    });
  });

  describe('get-notification-config', () => {
    it('says how to subscribe (none with the outbox) and whether this device is registered', async () => {
      const jar = (await newPerson()).jars[0]!;
      const before = await call(
        { jar },
        { action: 'get-notification-config', deviceId: 'device-config-1' },
      );
      expect(notificationConfigSchema.parse(before.json())).toEqual({
        kind: 'none',
        deviceRegistered: false,
      });
      await addToken({ jar }, 'device-config-1', fcmToken('config'));
      const after = await call(
        { jar },
        { action: 'get-notification-config', deviceId: 'device-config-1' },
      );
      expect(after.json()).toEqual({ kind: 'none', deviceRegistered: true });
    });

    it('a registration of a session ended elsewhere (password reset, stolen token) no longer counts', async () => {
      const me = await newPerson();
      const jar = me.jars[0]!;
      await addToken({ jar }, 'device-revoked-1', fcmToken('revoked'));
      const [row] = await tokensOf(me.id);
      await t.db
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(eq(sessions.id, row?.sessionId ?? ''));
      const fresh = (await logInAs(t.app, (await insertTestUser(t.db)).email ?? '')).jar;
      expect(
        (
          await call(
            { jar: fresh },
            { action: 'get-notification-config', deviceId: 'device-revoked-1' },
          )
        ).json().deviceRegistered,
      ).toBe(false);
      const outcome = await t.app.notifier.send({
        orgId: null,
        userIds: [me.id],
        title: 'Hi',
        body: 'b',
        url: '/dashboard',
      });
      expect(outcome).toMatchObject({ status: 'no-devices', deviceCount: 0 });
    });
  });

  describe('send-test-notification', () => {
    it('staff with manage-org-branding send a test notice to their own devices, through a job', async () => {
      const b = await seedSyncOrg(t.app, t.db);
      expect(
        (await call(b.manager, { action: 'send-test-notification', orgId: b.org.id })).json(),
      ).toEqual({ status: 'no-devices', deviceCount: 0, recordedOnly: true });
      await addToken(a.manager, 'device-manager-1', fcmToken('manager'));
      await addToken(a.staff, 'device-staff-1', fcmToken('staff'));
      const res = await call(a.manager, { action: 'send-test-notification', orgId: a.org.id });
      expect(res.statusCode).toBe(200);
      expect(testNoticeAnswerSchema.parse(res.json())).toEqual({
        status: 'queued',
        deviceCount: 1,
        recordedOnly: true,
      });
      const row = await waitFor('the recorded notice', async () => {
        const [found] = await t.db
          .select()
          .from(notificationOutbox)
          .where(eq(notificationOutbox.userId, a.manager.id));
        return found;
      });
      expect(row).toMatchObject({
        orgId: a.org.id,
        title: notificationMessages.testTitle,
        body: notificationMessages.testBody,
        url: '/dashboard',
        adapter: 'outbox',
        deviceCount: 1,
        status: 'recorded',
      });
      await drainJobs(t.app);
      expect(
        await t.db
          .select()
          .from(notificationOutbox)
          .where(eq(notificationOutbox.userId, a.staff.id)),
      ).toEqual([]);
    });

    it('refuses staff without the claim, customers, other organisations and strangers', async () => {
      const b = await seedSyncOrg(t.app, t.db);
      const send = (who: Person | null, orgId = a.org.id) =>
        call(who, { action: 'send-test-notification', orgId });
      expect((await send(a.staff)).statusCode).toBe(403);
      expect((await send(a.parent)).statusCode).toBe(403);
      expect((await send(b.manager)).statusCode).toBe(403);
      expect((await send(null)).statusCode).toBe(401);
      expect((await send(a.manager, b.org.id)).statusCode).toBe(403);
    });
  });

  it('answers Web Push’s public key when that adapter is configured', async () => {
    const vapid = {
      subject: 'mailto:push@example.test',
      publicKey: webPushKeys.p256dh,
      privateKey: 'x'.repeat(43),
    };
    const webPush = await createTestApp(kind, { notifier: (db) => new WebPushNotifier(db, vapid) });
    try {
      const jar = (await logInAs(webPush.app, (await insertTestUser(webPush.db)).email ?? '')).jar;
      const res = await webPush.app.inject({
        method: 'POST',
        url: '/api/notifications',
        headers: jar.headers(),
        payload: { action: 'get-notification-config' },
      });
      expect(res.json()).toEqual({
        kind: 'webpush',
        vapidPublicKey: vapid.publicKey,
        deviceRegistered: false,
      });
    } finally {
      await webPush.close();
    }
  });
});
