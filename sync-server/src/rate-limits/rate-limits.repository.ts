import { and, eq, gt, inArray, like, max, sql, type SQL } from 'drizzle-orm';
import { rateLimits } from '@platform/schema/db';
import type { Db } from '../db/open-database.ts';

// Times come from the caller (one clock for the rule and its tests) and travel as ISO text, so
// both drivers read them the same way.
const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;
const millis = (value: number | SQL) => sql`(${value}::float8 * interval '1 millisecond')`;
const LONG_AGO = new Date(0);

/**
 * Spends `costMs` of a rate's budget (GCRA: free_at is when the whole budget is back; a spend
 * moves it on by its cost, and is refused when that would put it more than `periodMs` ahead).
 * One statement: concurrent spends of one key queue on its row, so a burst cannot overspend.
 * Answers the new free_at, or null when refused.
 */
export async function spendFromRate(
  db: Db,
  key: string,
  { costMs, periodMs, now }: { costMs: number; periodMs: number; now: Date },
): Promise<Date | null> {
  const next = sql`greatest(${rateLimits.freeAt}, ${at(now)}) + ${millis(costMs)}`;
  const first = new Date(now.getTime() + costMs);
  const [row] = await db
    .insert(rateLimits)
    .values({ key, freeAt: first, forgetAt: first })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: { freeAt: next, forgetAt: next },
      setWhere: sql`${next} <= ${at(new Date(now.getTime() + periodMs))}`,
    })
    .returning({ freeAt: rateLimits.freeAt });
  return row?.freeAt ?? null;
}

export async function giveBackToRate(db: Db, key: string, costMs: number) {
  const back = sql`${rateLimits.freeAt} - ${millis(costMs)}`;
  await db.update(rateLimits).set({ freeAt: back, forgetAt: back }).where(eq(rateLimits.key, key));
}

export type BackoffPolicy = {
  waitAfter: number;
  firstWaitMs: number;
  maxWaitMs: number;
  forgetAfterMs: number;
};

/** The wait after `failures` in a row, in SQL: the same curve as waitAfterFailures(). */
function waitSql(failures: SQL, policy: BackoffPolicy): SQL {
  const doublings = sql`least(${failures} - ${policy.waitAfter}, 40)`;
  return sql`(case when ${failures} < ${policy.waitAfter} then 0::float8
    else least(${policy.firstWaitMs}::float8 * power(2::float8, ${doublings}), ${policy.maxWaitMs}::float8) end)`;
}

/**
 * Counts one attempt as a failure *before* it is checked — unless the key must still wait.
 * A row past forget_at starts a new run. One statement, so concurrent attempts of one key queue
 * on its row and each sees the others. Answers the run's length and when the next attempt may
 * run if this one fails, or null while the key must wait.
 */
export async function countBackoffAttempt(
  db: Db,
  key: string,
  policy: BackoffPolicy,
  { now, firstWaitMs }: { now: Date; firstWaitMs: number },
): Promise<{ failures: number; freeAt: Date } | null> {
  const failures = sql`(case when ${rateLimits.forgetAt} <= ${at(now)} then 1 else ${rateLimits.failures} + 1 end)`;
  const wait = waitSql(failures, policy);
  const [row] = await db
    .insert(rateLimits)
    .values({
      key,
      failures: 1,
      freeAt: firstWaitMs > 0 ? new Date(now.getTime() + firstWaitMs) : LONG_AGO,
      forgetAt: new Date(now.getTime() + policy.forgetAfterMs),
    })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        failures,
        // No wait: free_at stays in the past rather than becoming `now`, which a concurrent
        // attempt holding an earlier clock would read as a wait.
        freeAt: sql`(case when ${wait} > 0 then ${at(now)} + ${millis(wait)} else ${rateLimits.freeAt} end)`,
        forgetAt: at(new Date(now.getTime() + policy.forgetAfterMs)),
      },
      setWhere: sql`${rateLimits.freeAt} <= ${at(now)}`,
    })
    .returning({ failures: rateLimits.failures, freeAt: rateLimits.freeAt });
  return row ?? null;
}

export async function freeAtOf(db: Db, key: string): Promise<Date | undefined> {
  const [row] = await db
    .select({ freeAt: rateLimits.freeAt })
    .from(rateLimits)
    .where(eq(rateLimits.key, key));
  return row?.freeAt;
}

/** Of these keys, those that must still wait at `now`, with until when. */
export async function waitingKeys(db: Db, keys: string[], now: Date): Promise<Map<string, Date>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .select({ key: rateLimits.key, freeAt: rateLimits.freeAt })
    .from(rateLimits)
    .where(and(inArray(rateLimits.key, keys), gt(rateLimits.freeAt, now)));
  return new Map(rows.map((row) => [row.key, row.freeAt]));
}

const startsWith = (prefix: string) =>
  like(rateLimits.key, `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);

/** The latest wait among the keys starting with `prefix`, if one is still running. */
export async function latestWait(db: Db, prefix: string, now: Date): Promise<Date | null> {
  const [row] = await db
    .select({ until: max(rateLimits.freeAt) })
    .from(rateLimits)
    .where(and(startsWith(prefix), gt(rateLimits.freeAt, now)));
  return row?.until ?? null;
}

export async function deleteKey(db: Db, key: string) {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}

export async function deleteKeysStartingWith(db: Db, prefix: string) {
  await db.delete(rateLimits).where(startsWith(prefix));
}

