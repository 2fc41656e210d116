import type { Db } from '../db/open-database.ts';
import {
  addressSubject,
  enforce,
  hashedSubject,
  spend,
  type RateRule,
} from '../rate-limits/rate-limits.ts';

const HOUR = 60 * 60_000;

/** Decision 0020. */
export const passwordResetLimits = {
  /** Requests from one address, whatever they ask about: mail bombing many people. */
  perAddress: { name: 'forgot-password-address', limit: 10, perMs: HOUR } satisfies RateRule,
  /** Emails to one address, from anywhere: mail bombing one person. */
  perAccount: { name: 'forgot-password-account', limit: 3, perMs: HOUR } satisfies RateRule,
};

/**
 * Whether this forgot-password request may send an email. Too many from one address throw
 * RateLimited (429, Retry-After), whatever was asked. Too many for one email address answer
 * false: the caller answers as usual and sends nothing — counted for every address, known or
 * not, so the limit says nothing about which ones have an account.
 */
export async function mayMailPasswordReset(
  db: Db,
  email: string,
  ip: string,
  now = new Date(),
): Promise<boolean> {
  const { perAddress, perAccount } = passwordResetLimits;
  await enforce(db, [{ rule: perAddress, subject: addressSubject(ip) }], { now });
  const forAccount = await spend(db, perAccount, hashedSubject(email.trim().toLowerCase()), { now });
  return forAccount.ok;
}
