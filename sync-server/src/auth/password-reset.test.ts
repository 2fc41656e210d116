import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loginMessages,
  passwordResetMessages,
  signupMessages,
} from '@platform/schema/auth/auth.messages';
import { emailOutbox, passwordResetTokens } from '@platform/schema/db';
import { insertTestUser, logInAs, uniqueEmail } from '../testing/auth-fixtures.ts';
import { drainJobs, waitFor, waitForEmail } from '../testing/job-fixtures.ts';
import { issueSetPasswordLink } from '../families/families.service.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

describe.each(testDatabaseKinds)('password reset on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  const forgot = (email: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email } });
  const reset = (token: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password } });
  const login = (identifier: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { identifier, password },
      remoteAddress: `10.9.${Math.floor(Math.random() * 250)}.1`,
    });

  /** Asks for a reset and reads the token from the link in the email the job records. */
  async function requestToken(email: string) {
    const before = new Set((await mailsTo(email)).map((mail) => mail.id));
    expect((await forgot(email)).statusCode).toBe(200);
    const mail = await waitFor('the reset email', async () =>
      (await mailsTo(email)).find((row) => !before.has(row.id) && row.status !== 'pending'),
    );
    const token = /\/auth\/reset-password\?token=([\w-]+)/.exec(mail.textBody ?? '')?.[1];
    if (!token) throw new Error('no reset link in the email');
    return { mail, token };
  }
  const mailsTo = (email: string) =>
    t.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, email))
      .orderBy(desc(emailOutbox.createdAt));

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('answers the same for known and unknown addresses, and mails a link only to the known one', async () => {
    const user = await insertTestUser(t.db);
    const unknown = uniqueEmail('ghost');
    const known = await forgot(user.email!.toUpperCase());
    const stranger = await forgot(unknown);
    for (const res of [known, stranger]) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true, message: passwordResetMessages.sent });
    }
    // The email comes from the job: wait for it, then for the stranger's job to be done too.
    await waitForEmail(t.db, user.email!);
    await drainJobs(t.app);
    expect(await mailsTo(unknown)).toEqual([]);
    const { mail, token } = await requestToken(user.email!);
    expect(mail.subject).toBe('Reset your password');
    expect(mail.textBody).toContain(`http://localhost:3000/auth/reset-password?token=${token}`);
    expect(mail.htmlBody).toContain(
      `href="http://localhost:3000/auth/reset-password?token=${token}"`,
    );
    // Only a hash of the token is kept.
    expect(
      await t.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.tokenHash, token)),
    ).toEqual([]);
  });

  it('does the same work in the request for known and unknown addresses: one queued job', async () => {
    // Workers off: what is stored is what the request alone did.
    const quiet = await createTestApp(kind, { jobs: { work: false } });
    try {
      const user = await insertTestUser(quiet.db);
      const statements: Array<{ text: string; values: readonly unknown[] }> = [];
      const execute = quiet.app.database.executeSql;
      quiet.app.database.executeSql = (text, values = []) => {
        statements.push({ text, values });
        return execute(text, values);
      };
      const ask = async (email: string) => {
        statements.length = 0;
        const res = await quiet.app.inject({
          method: 'POST',
          url: '/api/auth/forgot-password',
          payload: { email },
        });
        return { status: res.statusCode, body: res.body, statements: [...statements] };
      };
      const ghost = uniqueEmail('ghost');
      const known = await ask(user.email!);
      const unknown = await ask(ghost);
      expect(unknown.status).toBe(200);
      expect(unknown.body).toBe(known.body);
      // The same statements; their values differ by the address alone.
      const shape = (run: typeof known, email: string) =>
        run.statements.map(({ text, values }) => ({
          text,
          values: JSON.stringify(values).replaceAll(email, '<address>'),
        }));
      expect(known.statements.length).toBeGreaterThan(0);
      expect(shape(unknown, ghost)).toEqual(shape(known, user.email!));
      // No lookup, token or email happened in the request: the job does them.
      expect(
        await quiet.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id)),
      ).toEqual([]);
      expect(await quiet.db.select().from(emailOutbox)).toEqual([]);
      const queued = await quiet.app.database.executeSql(
        `select data from pgboss.job where name = 'forgot-password' order by created_on`,
      );
      expect(queued.rows).toEqual([
        { data: { email: user.email } },
        { data: { email: ghost } },
      ]);
    } finally {
      await quiet.close();
    }
  });

  it('ends every other outstanding reset and set-password link of the account once one is used', async () => {
    const user = await insertTestUser(t.db);
    const first = await requestToken(user.email!);
    const second = await requestToken(user.email!);
    const setPassword = await t.db.transaction((tx) =>
      issueSetPasswordLink(tx, 'http://localhost:3000', user.id),
    );
    const setPasswordToken = new URL(setPassword).searchParams.get('token')!;

    expect((await reset(second.token, 'second-new-password')).statusCode).toBe(200);
    for (const token of [first.token, setPasswordToken]) {
      const refused = await reset(token, 'sneaky-new-password');
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ message: passwordResetMessages.invalidToken });
    }
    expect((await login(user.email!, 'second-new-password')).statusCode).toBe(200);
    const left = await t.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, user.id));
    expect(left).toHaveLength(3);
    expect(left.every((row) => row.usedAt !== null)).toBe(true);
  });

  it('refuses an invalid address with 400', async () => {
    const res = await forgot('not-an-email');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      errors: [{ field: 'email', message: signupMessages.invalidEmail }],
    });
  });

  it('sets the new password once, and signs the account out everywhere', async () => {
    const user = await insertTestUser(t.db);
    const { jar } = await logInAs(t.app, user.email!);
    const { token } = await requestToken(user.email!);

    const res = await reset(token, 'brand-new-password');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, message: passwordResetMessages.done });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/me', headers: jar.headers() })).statusCode,
    ).toBe(401);
    expect((await login(user.email!, 'brand-new-password')).statusCode).toBe(200);
    expect((await login(user.email!, 'correct-horse-battery')).json()).toMatchObject({
      message: loginMessages.failureBody,
    });

    const again = await reset(token, 'another-password');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ message: passwordResetMessages.invalidToken });
  });

  it('lets exactly one of two simultaneous uses of a token succeed', async () => {
    const user = await insertTestUser(t.db);
    const { token } = await requestToken(user.email!);
    const results = await Promise.all([
      reset(token, 'first-new-password'),
      reset(token, 'second-new-password'),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const winner = results[0]!.statusCode === 200 ? 'first-new-password' : 'second-new-password';
    expect((await login(user.email!, winner)).statusCode).toBe(200);
  });

  it('refuses an expired token, an unknown token and a short password', async () => {
    const user = await insertTestUser(t.db);
    const { token } = await requestToken(user.email!);
    const short = await reset(token, 'short');
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({
      errors: [{ field: 'password', message: signupMessages.passwordTooShort }],
    });

    await t.db
      .update(passwordResetTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(passwordResetTokens.userId, user.id));
    const expired = await reset(token, 'long-enough-password');
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatchObject({ message: passwordResetMessages.invalidToken });

    const unknown = await reset('x'.repeat(43), 'long-enough-password');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ message: passwordResetMessages.invalidToken });
  });

  it('makes a link valid for one hour', async () => {
    const user = await insertTestUser(t.db);
    await requestToken(user.email!);
    const [row] = await t.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, user.id));
    const minutes = (row!.expiresAt.getTime() - row!.createdAt.getTime()) / 60_000;
    expect(minutes).toBeGreaterThan(59);
    expect(minutes).toBeLessThanOrEqual(60.1);
  });
});
