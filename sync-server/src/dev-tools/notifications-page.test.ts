import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationTokens } from '@platform/schema/db';
import { sentNoticeSchema } from '@platform/schema/dev-tools/sent-notices.zod';
import { insertTestUser } from '../testing/auth-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

describe.each(testDatabaseKinds)('development notifications page on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let recipient: Awaited<ReturnType<typeof insertTestUser>>;
  beforeAll(async () => {
    t = await createTestApp(kind, { env: { DEV_TOOLS: '1' } });
    recipient = await insertTestUser(t.db);
    await t.db
      .insert(notificationTokens)
      .values({
        userId: recipient.id,
        deviceId: 'device-dev-page',
        kind: 'fcm',
        token: 'token-dev-page',
      });
    await t.app.notifier.send({
      orgId: null,
      userIds: [recipient.id],
      title: 'Older',
      body: 'first',
      url: '/dashboard',
    });
    await t.app.notifier.send({
      orgId: null,
      userIds: [recipient.id],
      title: '<script>alert(1)</script>',
      body: 'Yoga moved to <b>19:00</b>',
      url: '/dashboard/bookings?day="x"',
    });
  });
  afterAll(() => t.close());

  it('lists what would have been sent, escaped, newest first', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dev/notifications' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.body).not.toContain('<script>alert(1)');
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.body).toContain('Yoga moved to &lt;b&gt;19:00&lt;/b&gt;');
    expect(res.body).toContain(
      `To ${recipient.email} · outbox · 1 device · <strong>recorded</strong>`,
    );
    expect(res.body).toContain('<a href="/dashboard/bookings?day=&quot;x&quot;">');
    expect(res.body.indexOf('&lt;script&gt;')).toBeLessThan(res.body.indexOf('Older'));
  });

  it('answers the same as JSON', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/dev/notifications' });
    const notices = res.json<unknown[]>().map((notice) => sentNoticeSchema.parse(notice));
    expect(notices[0]).toMatchObject({
      userId: recipient.id,
      recipient: recipient.email,
      title: '<script>alert(1)</script>',
      adapter: 'outbox',
      deviceCount: 1,
      status: 'recorded',
    });
    expect(notices.map((notice) => notice.title)).toContain('Older');
  });
});

describe('development notifications page in production', () => {
  it('does not exist', async () => {
    const t = await createTestApp(testDatabaseKinds[0]!, { env: { NODE_ENV: 'production' } });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/dev/notifications' })).statusCode).toBe(
        404,
      );
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/dev/notifications' })).statusCode,
      ).toBe(404);
    } finally {
      await t.close();
    }
  });
});
