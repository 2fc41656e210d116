import { randomUUID } from 'node:crypto';
import { gte, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimits } from '@platform/schema/db';
import { createTestDatabase, testDatabaseKinds } from '../testing/test-database.ts';
import type { Database } from '../db/open-database.ts';
import {
  attemptSucceeded,
  backoffRule,
  enforce,
  forgetRuns,
  giveBack,
  latestWaitAmong,
  RateLimited,
  spend,
  startAttempt,
  waitAfterFailures,
  waitingSubjects,
  type RateRule,
} from './rate-limits.ts';

const MINUTE = 60_000;
const later = (from: Date, ms: number) => new Date(from.getTime() + ms);
const rate: RateRule = { name: 'test-rate', limit: 10, perMs: 10 * MINUTE };
const backoff = backoffRule({
  name: 'test-backoff',
  waitAfter: 5,
  firstWaitMs: 15_000,
  maxWaitMs: 15 * MINUTE,
  forgetAfterMs: 24 * 60 * MINUTE,
});

describe('waitAfterFailures', () => {
  it('is free for the first failures, then doubles from the first wait up to the cap', () => {
    const waits = Array.from({ length: 14 }, (_, i) => waitAfterFailures(backoff, i + 1) / 1000);
    expect(waits).toEqual([0, 0, 0, 0, 15, 30, 60, 120, 240, 480, 900, 900, 900, 900]);
    expect(waitAfterFailures(backoff, 10_000)).toBe(15 * MINUTE);
  });

  it('refuses a rule whose runs would be forgotten before their wait ends', () => {
    expect(() => backoffRule({ ...backoff, forgetAfterMs: MINUTE })).toThrow(/inconsistent/);
  });
});

describe.each(testDatabaseKinds)('rate limits in the database on %s', (kind) => {
  let database: Database;
  const db = () => database.db;
  const subject = () => randomUUID();
  const now = new Date('2031-03-01T09:00:00.000Z');

  beforeAll(async () => {
    database = await createTestDatabase(kind, { maxConnections: 10 });
  });
  afterAll(() => database.close());

  describe('a rate', () => {
    it(`allows ${rate.limit} at once, then one per ${rate.perMs / rate.limit / 1000} s as the budget comes back`, async () => {
      const who = subject();
      for (let i = 0; i < rate.limit; i++) expect(await spend(db(), rate, who, { now })).toEqual({ ok: true });
      expect(await spend(db(), rate, who, { now })).toEqual({ ok: false, retryAfterMs: MINUTE });
      expect((await spend(db(), rate, who, { now: later(now, MINUTE - 1) })).ok).toBe(false);
      expect((await spend(db(), rate, who, { now: later(now, MINUTE) })).ok).toBe(true);
      expect((await spend(db(), rate, who, { now: later(now, MINUTE) })).ok).toBe(false);
      // A whole period later the whole budget is back.
      for (let i = 0; i < rate.limit; i++)
        expect((await spend(db(), rate, who, { now: later(now, 12 * MINUTE) })).ok).toBe(true);
      // Other subjects have budgets of their own.
      expect((await spend(db(), rate, subject(), { now })).ok).toBe(true);
    });

    it('counts costs in units, and never takes one larger than the whole budget', async () => {
      const who = subject();
      expect((await spend(db(), rate, who, { cost: 8, now })).ok).toBe(true);
      expect(await spend(db(), rate, who, { cost: 3, now })).toEqual({ ok: false, retryAfterMs: MINUTE });
      expect((await spend(db(), rate, who, { cost: 2, now })).ok).toBe(true);
      await expect(spend(db(), rate, who, { cost: 11, now })).rejects.toThrow(/can never fit/);
    });

    it('lets no burst overspend: of 30 concurrent spends of a budget of 10, 10 pass', async () => {
      const who = subject();
      const verdicts = await Promise.all(
        Array.from({ length: 30 }, () => spend(db(), rate, who, { now })),
      );
      expect(verdicts.filter((v) => v.ok)).toHaveLength(rate.limit);
    });

    it('gives back a spend that did not count', async () => {
      const who = subject();
      for (let i = 0; i < rate.limit; i++) await spend(db(), rate, who, { now });
      await giveBack(db(), rate, who);
      expect((await spend(db(), rate, who, { now })).ok).toBe(true);
      expect((await spend(db(), rate, who, { now })).ok).toBe(false);
    });

    it('enforces several budgets at once, giving back the others when one refuses', async () => {
      const [a, b] = [subject(), subject()];
      const other: RateRule = { name: 'test-other', limit: 2, perMs: 10 * MINUTE };
      const both = [{ rule: rate, subject: a }, { rule: other, subject: b }];
      await enforce(db(), both, { now });
      await enforce(db(), both, { now });
      const refused = await enforce(db(), both, { now, message: (ms) => `wait ${ms}` }).catch(
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(RateLimited);
      expect(refused).toMatchObject({ retryAfterMs: 5 * MINUTE, message: `wait ${5 * MINUTE}` });
      // a's budget got its spend back: 8 of 10 are left.
      for (let i = 0; i < 8; i++) expect((await spend(db(), rate, a, { now })).ok).toBe(true);
      expect((await spend(db(), rate, a, { now })).ok).toBe(false);
    });
  });

  describe('a backoff', () => {
    it('counts each attempt before it is checked, then makes the subject wait longer after each failure', async () => {
      const who = subject();
      let at = now;
      for (let i = 1; i < backoff.waitAfter; i++)
        expect(await startAttempt(db(), backoff, who, at)).toEqual({ ok: true, failures: i, waitIfFailedMs: 0 });
      for (const waitMs of [15_000, 30_000, 60_000]) {
        const attempt = await startAttempt(db(), backoff, who, at);
        expect(attempt).toMatchObject({ ok: true, waitIfFailedMs: waitMs });
        expect(await startAttempt(db(), backoff, who, later(at, waitMs - 1))).toEqual({ ok: false, retryAfterMs: 1 });
        at = later(at, waitMs);
      }
      // A success ends the run: the next failure is free again.
      expect((await startAttempt(db(), backoff, who, at)).ok).toBe(true);
      await attemptSucceeded(db(), backoff, who);
      expect(await startAttempt(db(), backoff, who, at)).toEqual({ ok: true, failures: 1, waitIfFailedMs: 0 });
    });

    it('forgets a run a day after its last failure', async () => {
      const who = subject();
      for (let i = 0; i < 7; i++) await startAttempt(db(), backoff, who, later(now, i * 15 * MINUTE));
      const lastAt = later(now, 6 * 15 * MINUTE);
      expect((await startAttempt(db(), backoff, who, later(lastAt, 24 * 60 * MINUTE - 1))).ok).toBe(true);
      expect(await startAttempt(db(), backoff, who, later(lastAt, 48 * 60 * MINUTE))).toEqual({
        ok: true,
        failures: 1,
        waitIfFailedMs: 0,
      });
    });

    it(`lets no burst slip past: of 20 concurrent attempts, ${backoff.waitAfter} run`, async () => {
      const who = subject();
      const attempts = await Promise.all(
        Array.from({ length: 20 }, () => startAttempt(db(), backoff, who, now)),
      );
      expect(attempts.filter((a) => a.ok)).toHaveLength(backoff.waitAfter);
      expect(attempts.filter((a) => a.ok).map((a) => (a.ok ? a.failures : 0)).sort()).toEqual([1, 2, 3, 4, 5]);
    });

    it('tells which subjects wait and until when, and forgets runs by prefix', async () => {
      const person = randomUUID();
      const [here, there] = [`${person}:here`, `${person}:there`];
      for (let i = 0; i < backoff.waitAfter; i++) await startAttempt(db(), backoff, there, now);
      await startAttempt(db(), backoff, here, now);
      const until = later(now, 15_000);
      expect(await waitingSubjects(db(), backoff, [here, there], now)).toEqual(new Map([[there, until]]));
      expect(await latestWaitAmong(db(), backoff, `${person}:`, now)).toEqual(until);
      expect(await latestWaitAmong(db(), backoff, `${person}:`, until)).toBeNull();
      await forgetRuns(db(), backoff, `${person}:`);
      expect(await waitingSubjects(db(), backoff, [here, there], now)).toEqual(new Map());
      expect(await db().select().from(rateLimits).where(like(rateLimits.key, `%${person}%`))).toEqual([]);
    });
  });

  it('marks when a row counts as absent (forget_at), which the prune job deletes by', async () => {
    const [spent, running] = [subject(), subject()];
    await spend(db(), rate, spent, { now });
    await startAttempt(db(), backoff, running, now);
    const keys = (
      await db()
        .select({ key: rateLimits.key })
        .from(rateLimits)
        .where(gte(rateLimits.forgetAt, later(now, 11 * MINUTE)))
    ).map((r) => r.key);
    expect(keys).not.toContain(`${rate.name}:${spent}`);
    expect(keys).toContain(`${backoff.name}:${running}`);
  });
});
