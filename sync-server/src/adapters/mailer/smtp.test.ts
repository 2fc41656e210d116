import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox } from '@platform/schema/db';
import { rowsOf } from '../../db/open-database.ts';
import { insertTestUser, uniqueEmail } from '../../testing/auth-fixtures.ts';
import { waitFor } from '../../testing/job-fixtures.ts';
import { startSmtpStandIn } from '../../testing/smtp-server-stand-in.ts';
import { createTestApp } from '../../testing/test-app.ts';
import { testDatabaseKinds } from '../../testing/test-database.ts';

/** The text of a received message with quoted-printable soft breaks and escapes undone. */
const decoded = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));

describe.each(testDatabaseKinds)('emails over SMTP through the queue on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let smtp: Awaited<ReturnType<typeof startSmtpStandIn>>;
  beforeAll(async () => {
    smtp = await startSmtpStandIn();
    t = await createTestApp(kind, {
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'Platform <no-reply@example.test>' },
      // Three attempts a second or two apart: the retries are seen in seconds.
      jobs: { retryLimit: 2 },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const settled = (to: string) =>
    waitFor(`the email to ${to} to be done with`, async () => {
      const [row] = await t.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, to));
      return row && row.status !== 'pending' ? row : undefined;
    });

  it('answers forgot-password before the mail server is contacted; once sent, no body or link is kept', async () => {
    const user = await insertTestUser(t.db);
    const to = user.email!;
    smtp.hold();
    const answered = await t.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: to },
    });
    expect(answered.statusCode).toBe(200);
    // The mail server has greeted nobody yet: the answer did not wait for it.
    expect(smtp.received).toEqual([]);
    smtp.release();

    const row = await settled(to);
    expect(row).toMatchObject({ status: 'sent', textBody: null, htmlBody: null, error: null });
    expect(row.sentAt).toBeInstanceOf(Date);
    const mail = smtp.received.find((received) => received.to.includes(to));
    const token = /\/auth\/reset-password\?token=([\w-]+)/.exec(decoded(mail?.raw ?? ''))?.[1];
    if (!token) throw new Error('no reset link reached the mail server');

    // Nowhere in the outbox nor the queue's tables is a usable link left.
    const stored = [
      ...(await t.db.select().from(emailOutbox)),
      ...rowsOf(await t.db.execute(sql`select data, output from pgboss.job`)),
      ...rowsOf(await t.db.execute(sql`select data, output from pgboss.archive`)),
    ];
    expect(JSON.stringify(stored)).not.toContain(token);
    // …and the link that left works.
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, password: 'a-brand-new-password' },
    });
    expect(reset.statusCode).toBe(200);
  });

  it('retries a refusing mail server with growing delays until it accepts', async () => {
    const to = uniqueEmail('retried');
    smtp.refuse(2);
    await t.app.mailer.send({ to, subject: 'Retried', text: 'Hello again' });
    expect(await settled(to)).toMatchObject({ status: 'sent', textBody: null, error: null });
    const [first, second] = smtp.refusals.slice(-2) as [number, number];
    const accepted = smtp.received.find((received) => received.to.includes(to))!.at;
    // Backoff with jitter (test base 1 s): 1–2 s, then 2–4 s.
    expect(second - first).toBeGreaterThanOrEqual(1_000);
    expect(accepted - second).toBeGreaterThanOrEqual(2_000);
  }, 30_000);

  it('gives up after the last retry: failed, with the error and without the body', async () => {
    const to = uniqueEmail('refused');
    smtp.refuse(3);
    await t.app.mailer.send({
      to,
      subject: 'Never delivered',
      text: 'Set your password: http://localhost:3000/auth/reset-password?token=secret-token',
    });
    const row = await settled(to);
    expect(row).toMatchObject({
      status: 'failed',
      textBody: null,
      htmlBody: null,
      subject: 'Never delivered',
    });
    expect(row.error).toMatch(/451/);
    expect(smtp.received.some((received) => received.to.includes(to))).toBe(false);
  }, 30_000);
});
