import { passwordResetMessages } from '@platform/schema/auth/auth.messages';
import { claimAccount } from '../access/claim-account.ts';
import type { Mailer } from '../adapters/mailer/port.ts';
import type { Db, Tx } from '../db/open-database.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { ValidationFailed } from '../plugins/domain-errors.ts';
import { hashPassword } from './passwords.ts';
import { passwordResetEmail } from './password-reset.email.ts';
import {
  findResetToken,
  insertResetToken,
  markUserResetTokensUsed,
  type ResetTokenRow,
} from './password-reset.repository.ts';
import { hashToken, newToken } from './tokens.ts';
import { replacePassword } from './accounts.service.ts';
import { findUserByEmail } from './users.repository.ts';

export const RESET_TOKEN_TTL_MS = 60 * 60_000;

/**
 * The forgot-password route's whole work: one job holding the address, whether or not it has
 * an account — the same statements and the same time either way (decision 0015). The lookup,
 * the token and the email happen in the job.
 */
export async function queuePasswordReset(jobs: Pick<JobQueue, 'enqueue'>, email: string) {
  await jobs.enqueue('forgot-password', { email });
}

/**
 * The forgot-password job: emails a single-use link when the account exists. The token and
 * its email are stored in one transaction, so neither exists without the other.
 */
export async function requestPasswordReset(
  db: Db,
  mailer: Mailer,
  publicUrl: string,
  email: string,
): Promise<void> {
  const user = await findUserByEmail(db, email);
  if (!user?.email) return;
  const to = user.email;
  await db.transaction(async (tx) => {
    const link = await issueResetLink(tx, publicUrl, user.id, RESET_TOKEN_TTL_MS);
    await mailer.send(passwordResetEmail(to, link), { tx });
  });
}

/**
 * A single-use link to the reset-password page, valid for `validForMs`. Families use it too,
 * as the set-password link of an account made without a password.
 */
export async function issueResetLink(tx: Tx, publicUrl: string, userId: string, validForMs: number) {
  const token = newToken();
  // Only the hash is stored: a database leak does not hand out working links.
  await insertResetToken(tx, userId, hashToken(token), new Date(Date.now() + validForMs));
  return `${publicUrl}/auth/reset-password?token=${encodeURIComponent(token)}`;
}

/** Another way of setting the password (an accepted invitation) ends the reset links too. */
export async function useUpResetLinks(tx: Tx, userId: string): Promise<void> {
  await markUserResetTokensUsed(tx, userId);
}

const usable = (row: ResetTokenRow | undefined): row is ResetTokenRow =>
  row !== undefined && row.usedAt === null && row.expiresAt > new Date();

/**
 * Sets the new password, uses up every other reset link of the account, and signs it out
 * everywhere. The token is re-read under a row lock inside the transaction, so of two
 * concurrent uses exactly one succeeds.
 */
export async function resetPassword(db: Db, token: string, password: string): Promise<void> {
  const tokenHash = hashToken(token);
  // Cheap check first: no argon2 work for tokens that were never valid.
  if (!usable(await findResetToken(db, tokenHash)))
    throw new ValidationFailed(passwordResetMessages.invalidToken);
  const passwordHash = await hashPassword(password);
  const done = await db.transaction(async (tx) => {
    const row = await findResetToken(tx, tokenHash, true);
    if (!usable(row)) return false;
    await markUserResetTokensUsed(tx, row.userId);
    await replacePassword(tx, row.userId, passwordHash);
    // A link sent to the address proves the reader owns it: an account someone else made for
    // that address becomes theirs (decision 0035).
    await claimAccount(tx, row.userId, 'password-link');
    return true;
  });
  if (!done) throw new ValidationFailed(passwordResetMessages.invalidToken);
}
