import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { BatchResponse, MulticastMessage } from 'firebase-admin/messaging';
import { notificationOutbox, notificationTokens } from '@platform/schema/db';
import { insertTestUser, logInAs } from '../../testing/auth-fixtures.ts';
import { createTestApp } from '../../testing/test-app.ts';
import { testDatabaseKinds } from '../../testing/test-database.ts';
import { createNotifier } from './create-notifier.ts';
import { FirebaseNotifier, type FcmMessaging } from './firebase.ts';

const web = {
  firebaseConfig: {
    apiKey: 'web-api-key',
    projectId: 'demo-project',
    messagingSenderId: '1234',
    appId: '1:1234:web:abcd',
  },
  vapidKey: null,
};

/** Stands in for FCM: answers each token as `answers` says (no network to Google here). */
class FcmStandIn implements FcmMessaging {
  readonly messages: MulticastMessage[] = [];
  constructor(private readonly answers: Record<string, string | 'ok'>) {}
  async sendEachForMulticast(message: MulticastMessage): Promise<BatchResponse> {
    this.messages.push(message);
    const responses = message.tokens.map((token) => {
      const code = this.answers[token] ?? 'ok';
      if (code === 'ok')
        return { success: true, messageId: `projects/demo-project/messages/${token}` };
      return {
        success: false,
        error: { code, message: code, toJSON: () => ({ code, message: code }) },
      };
    });
    const successCount = responses.filter((response) => response.success).length;
    return { responses, successCount, failureCount: responses.length - successCount };
  }
}

describe.each(testDatabaseKinds)('Firebase adapter on %s', (kind) => {
  const fcm = new FcmStandIn({
    'token-gone': 'messaging/registration-token-not-registered',
    'token-invalid': 'messaging/invalid-registration-token',
    'token-busy': 'messaging/server-unavailable',
  });
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp(kind, { notifier: (db) => new FirebaseNotifier(db, fcm, web) });
  });
  afterAll(() => t?.close());

  it('multicasts a data message and forgets tokens FCM calls unregistered or invalid', async () => {
    const user = await insertTestUser(t.db);
    const other = await insertTestUser(t.db);
    const devices = {
      'device-ok': 'token-ok',
      'device-gone': 'token-gone',
      'device-invalid': 'token-invalid',
      'device-busy': 'token-busy',
    };
    await t.db
      .insert(notificationTokens)
      .values(
        Object.entries(devices).map(([deviceId, token]) => ({
          userId: user.id,
          deviceId,
          kind: 'fcm' as const,
          token,
        })),
      );
    // Another person's device, and a Web Push subscription FCM cannot reach: untouched.
    await t.db.insert(notificationTokens).values([
      { userId: other.id, deviceId: 'device-other', kind: 'fcm', token: 'token-other' },
      {
        userId: user.id,
        deviceId: 'device-webpush',
        kind: 'webpush',
        token: 'https://push.example/x',
        keys: { p256dh: 'p', auth: 'a' },
      },
    ]);

    const outcome = await t.app.notifier.send({
      orgId: null,
      userIds: [user.id],
      title: 'Booked',
      body: 'Yoga at 18:00',
      url: '/dashboard/bookings',
    });
    expect(outcome).toEqual({
      status: 'partial',
      deviceCount: 4,
      deliveredCount: 1,
      removedCount: 2,
    });
    expect(fcm.messages).toHaveLength(1);
    expect(fcm.messages[0]).toMatchObject({
      data: { title: 'Booked', body: 'Yoga at 18:00', url: '/dashboard/bookings' },
      webpush: { headers: { Urgency: 'high' } },
    });
    expect([...(fcm.messages[0]?.tokens ?? [])].sort()).toEqual([
      'token-busy',
      'token-gone',
      'token-invalid',
      'token-ok',
    ]);

    const left = await t.db
      .select()
      .from(notificationTokens)
      .where(eq(notificationTokens.userId, user.id));
    expect(left.map((row) => row.deviceId).sort()).toEqual([
      'device-busy',
      'device-ok',
      'device-webpush',
    ]);
    expect(
      await t.db.select().from(notificationTokens).where(eq(notificationTokens.userId, other.id)),
    ).toHaveLength(1);
    const [recorded] = await t.db
      .select()
      .from(notificationOutbox)
      .where(eq(notificationOutbox.userId, user.id));
    expect(recorded).toMatchObject({ adapter: 'firebase', deviceCount: 4, status: 'partial' });
    expect(recorded?.error).toContain('messaging/server-unavailable');
  });

  it('a batch FCM refuses as a whole fails every device and forgets none', async () => {
    const user = await insertTestUser(t.db);
    await t.db
      .insert(notificationTokens)
      .values({ userId: user.id, deviceId: 'device-a', kind: 'fcm', token: 'token-a' });
    const broken: FcmMessaging = {
      sendEachForMulticast: async () => {
        throw new Error('messaging/authentication-error');
      },
    };
    const notifier = new FirebaseNotifier(t.db, broken, web);
    const outcome = await notifier.send({
      orgId: null,
      userIds: [user.id],
      title: 'x',
      body: 'y',
      url: '/',
    });
    expect(outcome).toEqual({
      status: 'failed',
      deviceCount: 1,
      deliveredCount: 0,
      removedCount: 0,
    });
    expect(
      await t.db.select().from(notificationTokens).where(eq(notificationTokens.userId, user.id)),
    ).toHaveLength(1);
  });

  it('tells devices to subscribe through Firebase with the web config', async () => {
    const user = await insertTestUser(t.db);
    const { jar } = await logInAs(t.app, user.email ?? '');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/notifications',
      headers: jar.headers(),
      payload: { action: 'get-notification-config' },
    });
    expect(res.json()).toEqual({ kind: 'fcm', ...web, deviceRegistered: false });
  });
});

describe('createNotifier', () => {
  it('builds the Firebase adapter from a service account without reaching Google', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const db = {} as Parameters<typeof createNotifier>[0];
    const notifier = await createNotifier(db, {
      adapter: 'firebase',
      serviceAccount: {
        project_id: 'demo-project',
        client_email: 'push@demo-project.iam.gserviceaccount.com',
        private_key: pem,
      },
      web,
    });
    expect(notifier.kind).toBe('firebase');
    expect(notifier.clientConfig).toEqual({ kind: 'fcm', ...web });
    await notifier.close?.();
  });
});
