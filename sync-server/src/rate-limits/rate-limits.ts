import { createHash } from 'node:crypto';
import { tooManyRequestsMessage } from '@platform/schema/rate-limits/rate-limits.messages';
import type { Db } from '../db/open-database.ts';
import { TooManyRequests } from '../plugins/domain-errors.ts';
import { clientAddress } from './client-address.ts';
import {
  countBackoffAttempt,
  deleteKey,
  deleteKeysStartingWith,
  freeAtOf,
  giveBackToRate,
  latestWait,
  spendFromRate,
  waitingKeys,
  type BackoffPolicy,
} from './rate-limits.repository.ts';

// Rate limits kept in PostgreSQL, so every server process shares them (decision 0020). Two
// kinds: a rate (at most so many per period, earned back steadily) and a backoff (a run of
// failures after which each attempt waits longer). Both count before the guarded work runs.

/** At most `limit` units (requests, or rows of one) per `perMs`, earned back steadily. */
export type RateRule = { name: string; limit: number; perMs: number };

/**
 * A run of failures: from the `waitAfter`-th in a row, the next attempt waits `firstWaitMs`,
 * doubling with each further failure up to `maxWaitMs`. A success ends the run; so does
 * `forgetAfterMs` without a failure.
 */
export type BackoffRule = { name: string } & BackoffPolicy;

/** 429 with a Retry-After header (plugins/rate-limits.ts). */
export class RateLimited extends TooManyRequests {
  constructor(
    readonly retryAfterMs: number,
    message: string = tooManyRequestsMessage(retryAfterMs),
    details?: unknown,
  ) {
    super(message, details);
  }
}

export const retryAfterSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export type Verdict = { ok: true } | { ok: false; retryAfterMs: number };

/** Checks a backoff rule once, where it is defined: a run must outlive its longest wait. */
export function backoffRule(rule: BackoffRule): BackoffRule {
  if (rule.waitAfter < 1 || rule.forgetAfterMs < rule.maxWaitMs || rule.firstWaitMs > rule.maxWaitMs)
    throw new Error(`backoff rule ${rule.name} is inconsistent`);
  return rule;
}

/** A subject made of personal data (an address, an email) is kept as a hash only. */
export function hashedSubject(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('base64url');
}

/** The subject of a per-address limit: the client's address (an IPv6 /64), hashed. */
export const addressSubject = (ip: string) => hashedSubject(clientAddress(ip));

const keyOf = (rule: { name: string }, subject: string) => `${rule.name}:${subject}`;
const untilMs = (until: Date | undefined, now: Date) =>
  Math.max(1, (until ?? now).getTime() - now.getTime());

function costMsOf(rule: RateRule, cost: number): number {
  if (cost > rule.limit) throw new Error(`a cost of ${cost} can never fit rate ${rule.name}`);
  return (rule.perMs / rule.limit) * cost;
}

/** Spends `cost` units of the subject's budget, or answers how long until it could. */
export async function spend(
  db: Db,
  rule: RateRule,
  subject: string,
  { cost = 1, now = new Date() }: { cost?: number; now?: Date } = {},
): Promise<Verdict> {
  const costMs = costMsOf(rule, cost);
  const key = keyOf(rule, subject);
  if (await spendFromRate(db, key, { costMs, periodMs: rule.perMs, now })) return { ok: true };
  // The spend fits once the budget's free_at is no more than perMs - costMs ahead.
  const freeAt = (await freeAtOf(db, key))?.getTime() ?? now.getTime();
  return { ok: false, retryAfterMs: Math.max(1, freeAt + costMs - rule.perMs - now.getTime()) };
}

/** Undoes a spend whose work turned out not to count (a sign-in that succeeded). */
export async function giveBack(db: Db, rule: RateRule, subject: string, cost = 1) {
  await giveBackToRate(db, keyOf(rule, subject), costMsOf(rule, cost));
}

/**
 * Spends from each budget in turn; if one refuses, gives back what was spent from the others
 * and throws RateLimited (with `message` when given).
 */
export async function enforce(
  db: Db,
  spends: Array<{ rule: RateRule; subject: string; cost?: number }>,
  { now = new Date(), message }: { now?: Date; message?: (retryAfterMs: number) => string } = {},
): Promise<void> {
  for (const [index, { rule, subject, cost = 1 }] of spends.entries()) {
    const verdict = await spend(db, rule, subject, { cost, now });
    if (verdict.ok) continue;
    for (const spent of spends.slice(0, index)) await giveBack(db, spent.rule, spent.subject, spent.cost);
    throw new RateLimited(verdict.retryAfterMs, message?.(verdict.retryAfterMs));
  }
}

/** How long the next attempt waits after `failures` in a row. */
export function waitAfterFailures(rule: BackoffPolicy, failures: number): number {
  if (failures < rule.waitAfter) return 0;
  return Math.min(rule.firstWaitMs * 2 ** Math.min(failures - rule.waitAfter, 40), rule.maxWaitMs);
}

export type Attempt =
  | { ok: true; failures: number; waitIfFailedMs: number }
  | { ok: false; retryAfterMs: number };

/**
 * Starts an attempt: counted as a failure before it is checked (so concurrent attempts see
 * each other), or refused while the subject must wait. `failures` is the run's length if this
 * one fails, `waitIfFailedMs` the wait it then sets.
 */
export async function startAttempt(
  db: Db,
  rule: BackoffRule,
  subject: string,
  now = new Date(),
): Promise<Attempt> {
  const key = keyOf(rule, subject);
  const counted = await countBackoffAttempt(db, key, rule, {
    now,
    firstWaitMs: waitAfterFailures(rule, 1),
  });
  if (counted)
    return {
      ok: true,
      failures: counted.failures,
      waitIfFailedMs: Math.max(0, counted.freeAt.getTime() - now.getTime()),
    };
  return { ok: false, retryAfterMs: untilMs(await freeAtOf(db, key), now) };
}

/** The attempt succeeded: the run ends. */
export async function attemptSucceeded(db: Db, rule: BackoffRule, subject: string) {
  await deleteKey(db, keyOf(rule, subject));
}

/** Of these subjects, those that must still wait, with until when. */
export async function waitingSubjects(
  db: Db,
  rule: BackoffRule,
  subjects: string[],
  now = new Date(),
): Promise<Map<string, Date>> {
  const waiting = await waitingKeys(db, subjects.map((subject) => keyOf(rule, subject)), now);
  const bySubject = new Map<string, Date>();
  for (const subject of subjects) {
    const until = waiting.get(keyOf(rule, subject));
    if (until) bySubject.set(subject, until);
  }
  return bySubject;
}

/** The latest running wait among subjects starting with `prefix`. */
export function latestWaitAmong(db: Db, rule: BackoffRule, prefix: string, now = new Date()) {
  return latestWait(db, keyOf(rule, prefix), now);
}

/** Ends every run of the subjects starting with `prefix`. */
export async function forgetRuns(db: Db, rule: BackoffRule, prefix: string) {
  await deleteKeysStartingWith(db, keyOf(rule, prefix));
}

