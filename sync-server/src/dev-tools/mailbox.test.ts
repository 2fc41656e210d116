import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailboxEntrySchema } from '@platform/schema/dev-tools/mailbox.zod';
import type { MailTransport } from '../adapters/mailer/port.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { linkify } from './mailbox-page.ts';

describe.each(testDatabaseKinds)('development mailbox on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp(kind, { env: { DEV_TOOLS: '1' } });
  });
  afterAll(() => t.close());

  it('lists recorded emails as escaped HTML with clickable links, newest first', async () => {
    await t.app.mailer.send({ to: 'first@example.test', subject: 'Older', text: 'hello' });
    await t.app.mailer.send({
      to: 'a<b>@example.test',
      subject: '<script>alert(1)</script>',
      text: 'Reset: http://localhost:3000/auth/reset-password?token=abc&x="1" now\n<img src=x onerror=alert(1)>',
    });
    const res = await t.app.inject({ method: 'GET', url: '/dev/mailbox' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).not.toContain('<script>alert(1)');
    expect(res.body).not.toContain('<img');
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.body).toContain('a&lt;b&gt;@example.test');
    expect(res.body).toContain(
      '<a href="http://localhost:3000/auth/reset-password?token=abc&amp;x=">',
    );
    expect(res.body.indexOf('&lt;script&gt;')).toBeLessThan(res.body.indexOf('Older'));
  });

  it('answers the same as JSON', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/dev/mailbox' });
    expect(res.statusCode).toBe(200);
    const entries = res.json<unknown[]>().map((entry) => mailboxEntrySchema.parse(entry));
    expect(entries[0]).toMatchObject({
      to: 'a<b>@example.test',
      subject: '<script>alert(1)</script>',
    });
    expect(entries.length).toBeLessThanOrEqual(50);
  });
});

// Whether the routes exist touches no database, so one kind (the faster to build) is enough.
describe('development mailbox elsewhere', () => {
  const smtpLike: MailTransport = { kind: 'smtp', keepsBodies: false, deliver: async () => {} };

  it('does not exist when emails really leave, nor in production', async () => {
    for (const overrides of [
      { mailTransport: smtpLike, env: { DEV_TOOLS: '1' } },
      { env: { NODE_ENV: 'production' } },
    ]) {
      const t = await createTestApp(testDatabaseKinds[0]!, overrides);
      try {
        expect((await t.app.inject({ method: 'GET', url: '/dev/mailbox' })).statusCode).toBe(404);
        expect((await t.app.inject({ method: 'GET', url: '/api/dev/mailbox' })).statusCode).toBe(
          404,
        );
      } finally {
        await t.close();
      }
    }
  });

  it('linkify only makes http(s) links and escapes the rest', () => {
    expect(linkify('go javascript:alert(1) or https://x.test/a?b=1&c=2.')).toBe(
      'go javascript:alert(1) or <a href="https://x.test/a?b=1&amp;c=2.">https://x.test/a?b=1&amp;c=2.</a>',
    );
  });
});
