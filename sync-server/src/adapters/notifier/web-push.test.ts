import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { importJWK, jwtVerify } from 'jose';
import webpush from 'web-push';
import { notificationOutbox, notificationTokens } from '@platform/schema/db';
import { notificationMessages } from '@platform/schema/notifications/notifications.messages';
import {
  addMembership,
  insertTestOrg,
  insertTestUser,
  logInAs,
} from '../../testing/auth-fixtures.ts';
import { startPushServiceStandIn } from '../../testing/push-service-stand-in.ts';
import { waitFor } from '../../testing/job-fixtures.ts';
import { createTestApp } from '../../testing/test-app.ts';
import { testDatabaseKinds } from '../../testing/test-database.ts';
import { WebPushNotifier } from './web-push.ts';

const vapid = { subject: 'mailto:push@example.test', ...webpush.generateVAPIDKeys() };

/** The VAPID public key as a JWK, to check the Authorization header's signature. */
async function vapidVerifyKey() {
  const raw = Buffer.from(vapid.publicKey, 'base64url');
  const jwk = {
    kty: 'EC',
    crv: 'P-256',
    x: raw.subarray(1, 33).toString('base64url'),
    y: raw.subarray(33).toString('base64url'),
  };
  return importJWK(jwk, 'ES256');
}

describe.each(testDatabaseKinds)('Web Push adapter against a local push service on %s', (kind) => {
  let pushService: Awaited<ReturnType<typeof startPushServiceStandIn>>;
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    pushService = await startPushServiceStandIn();
    t = await createTestApp(kind, {
      notifier: (db) => new WebPushNotifier(db, vapid, { agent: pushService.agent }),
    });
  });
  afterAll(async () => {
    await t?.close();
    await pushService?.close();
  });

  /** Registered directly: the API accepts only the public push services' hosts. */
  const subscribe = async (userId: string, deviceId: string, pushPath: string) => {
    const subscription = pushService.subscription(pushPath);
    await t.db.insert(notificationTokens).values({
      userId,
      deviceId,
      kind: 'webpush',
      token: subscription.endpoint,
      keys: subscription.keys,
    });
    return subscription;
  };

  it('encrypts and POSTs each notice with a VAPID Authorization; a 410 forgets the subscription', async () => {
    const org = await insertTestOrg(t.db);
    const user = await insertTestUser(t.db);
    await addMembership(t.db, user.id, org.id, 'staff');
    const { jar } = await logInAs(t.app, user.email ?? '', {
      profileType: 'use-org',
      profileOrgId: org.id,
    });
    const phone = await subscribe(user.id, 'device-wp-phone', '/push/phone');
    await subscribe(user.id, 'device-wp-old', '/push/old');
    pushService.answer('/push/old', 410);

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/notifications',
      headers: jar.headers(),
      payload: { action: 'send-test-notification', orgId: org.id },
    });
    expect(res.json()).toEqual({ status: 'queued', deviceCount: 2, recordedOnly: false });
    // The push-notice job sends it; its outcome is recorded per recipient.
    const [recorded] = await waitFor('the notice to be sent', () =>
      t.db
        .select()
        .from(notificationOutbox)
        .where(eq(notificationOutbox.userId, user.id))
        .then((rows) => (rows.length > 0 ? rows : undefined)),
    );
    expect(recorded).toMatchObject({
      adapter: 'web-push',
      deviceCount: 2,
      status: 'partial',
      error: 'push service answered 410',
    });

    const toPhone = pushService.requests.find((request) => request.path === '/push/phone');
    if (!toPhone) throw new Error('the push service got nothing for the phone');
    expect(toPhone.headers['content-encoding']).toBe('aes128gcm');
    expect(toPhone.headers.ttl).toBe('86400');
    const [scheme, token, key] =
      /^vapid t=([^,]+), k=(.+)$/.exec(String(toPhone.headers.authorization)) ?? [];
    expect(scheme).toBeDefined();
    expect(key).toBe(vapid.publicKey);
    const { payload } = await jwtVerify(token ?? '', await vapidVerifyKey());
    expect(payload).toMatchObject({ aud: pushService.origin, sub: vapid.subject });
    expect(JSON.parse(phone.decrypt(toPhone.body))).toEqual({
      title: notificationMessages.testTitle,
      body: notificationMessages.testBody,
      url: '/dashboard',
    });

    const left = await t.db
      .select()
      .from(notificationTokens)
      .where(eq(notificationTokens.userId, user.id));
    expect(left.map((row) => row.deviceId)).toEqual(['device-wp-phone']);
  });

  it('keeps a subscription whose push service fails for another reason', async () => {
    const user = await insertTestUser(t.db);
    await subscribe(user.id, 'device-wp-busy', '/push/busy');
    pushService.answer('/push/busy', 503);
    const outcome = await t.app.notifier.send({
      orgId: null,
      userIds: [user.id],
      title: 'Hello',
      body: 'there',
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

  it('refuses a notice whose link leaves the site (a bug in the caller, not a device failure)', async () => {
    await expect(
      t.app.notifier.send({
        orgId: null,
        userIds: [],
        title: 'x',
        body: 'y',
        url: 'https://evil.test/',
      }),
    ).rejects.toThrow(/path on this site/);
  });
});
