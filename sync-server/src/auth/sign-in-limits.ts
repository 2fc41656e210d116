import type { Db } from '../db/open-database.ts';
import { clientAddress } from '../rate-limits/client-address.ts';
import {
  addressSubject,
  attemptSucceeded,
  backoffRule,
  giveBack,
  hashedSubject,
  spend,
  startAttempt,
  type RateRule,
} from '../rate-limits/rate-limits.ts';
import { TooManyLoginAttempts } from './auth.errors.ts';
import { verifyPassword } from './passwords.ts';

const MINUTE = 60_000;

/** Decision 0020. No limit is keyed on the account alone: a stranger could trip it. */
export const signInLimits = {
  /** Wrong passwords from one address, whatever the accounts: guessing many from one place. */
  perAddress: { name: 'sign-in-address', limit: 50, perMs: 15 * MINUTE } satisfies RateRule,
  /** Wrong passwords for one account from one address: 15 s after the fifth, doubling to 15 min. */
  perAccountAtAddress: backoffRule({
    name: 'sign-in-account-address',
    waitAfter: 5,
    firstWaitMs: 15_000,
    maxWaitMs: 15 * MINUTE,
    forgetAfterMs: 24 * 60 * MINUTE,
  }),
};

/**
 * Checks a password under the sign-in limits, which log-in, leaving a kiosk and changing one's
 * password share: `account` is whose password it is (an unknown name at log-in counts as
 * itself), `passwordHash` what is stored (none still takes as long, see verifyPassword). The
 * attempt is counted against the address and the (account, address) pair *before* the check,
 * so concurrent guesses see each other; a right password takes back the address's count and
 * ends the pair's run. Throws TooManyLoginAttempts (429) when limited.
 */
export async function verifyPasswordWithinLimits(
  db: Db,
  who: { account: string; ip: string; passwordHash: string | null | undefined },
  password: string,
  now = new Date(),
): Promise<boolean> {
  const { perAddress, perAccountAtAddress } = signInLimits;
  const address = addressSubject(who.ip);
  const pair = hashedSubject(who.account, clientAddress(who.ip));
  const byAddress = await spend(db, perAddress, address, { now });
  if (!byAddress.ok) throw new TooManyLoginAttempts(byAddress.retryAfterMs);
  const attempt = await startAttempt(db, perAccountAtAddress, pair, now);
  if (!attempt.ok) {
    // Refused unchecked: no password was tried, so the address's budget is not spent on it.
    await giveBack(db, perAddress, address);
    throw new TooManyLoginAttempts(attempt.retryAfterMs);
  }
  if (!(await verifyPassword(who.passwordHash, password))) return false;
  await giveBack(db, perAddress, address);
  await attemptSucceeded(db, perAccountAtAddress, pair);
  return true;
}
