import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordResetMessages } from '@platform/schema/auth/auth.messages';
import { emailOutbox } from '@platform/schema/db';
import { tooManyRequestsMessage } from '@platform/schema/rate-limits/rate-limits.messages';
import { insertTestUser, uniqueEmail } from '../testing/auth-fixtures.ts';
import { drainJobs } from '../testing/job-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { passwordResetLimits } from './password-reset.limits.ts';

const { perAddress, perAccount } = passwordResetLimits;

describe.each(testDatabaseKinds)('forgot-password limits on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let addresses = 0;
  const freshAddress = () => `192.0.2.${++addresses}`;
  const forgot = (email: string, remoteAddress = freshAddress()) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email },
      remoteAddress,
    });
  const sent = { ok: true, message: passwordResetMessages.sent };

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it(`answers 429 with Retry-After once one address has asked ${perAddress.limit} times, for known and unknown accounts alike`, async () => {
    const address = freshAddress();
    for (let i = 0; i < perAddress.limit; i++) expect((await forgot(uniqueEmail('who'), address)).json()).toEqual(sent);
    const user = await insertTestUser(t.db);
    const known = await forgot(user.email!, address);
    const unknown = await forgot(uniqueEmail('ghost'), address);
    for (const res of [known, unknown]) {
      expect(res.statusCode).toBe(429);
      const retryAfter = Number(res.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(perAddress.perMs / perAddress.limit / 1000);
      expect(res.json().message).toBe(tooManyRequestsMessage(retryAfter * 1000));
    }
    expect(known.body).toBe(unknown.body);
    expect(await t.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, user.email!))).toEqual([]);
    expect((await forgot(user.email!)).json()).toEqual(sent);
  });

  it(`mails one account at most ${perAccount.limit} times an hour, answering as usual after that`, async () => {
    const user = await insertTestUser(t.db);
    for (let i = 0; i < perAccount.limit + 2; i++) {
      const res = await forgot(i % 2 ? user.email!.toUpperCase() : user.email!);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(sent);
    }
    await drainJobs(t.app); // the emails are made by the forgot-password job (decision 0015)
    const mails = await t.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, user.email!));
    expect(mails).toHaveLength(perAccount.limit);
  });
});
