import { and, eq, isNull } from 'drizzle-orm';
import { passwordResetTokens } from '@platform/schema/db';
import type { Db } from '../db/open-database.ts';

export type ResetTokenRow = typeof passwordResetTokens.$inferSelect;

export async function insertResetToken(db: Db, userId: string, tokenHash: string, expiresAt: Date) {
  await db.insert(passwordResetTokens).values({ userId, tokenHash, expiresAt });
}

/** `lock` takes a row lock: inside a transaction, a second user of the token waits for the first. */
export async function findResetToken(
  db: Db,
  tokenHash: string,
  lock = false,
): Promise<ResetTokenRow | undefined> {
  const query = db
    .select()
    .from(passwordResetTokens)
    .where(eq(passwordResetTokens.tokenHash, tokenHash));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/**
 * Uses up every outstanding reset and set-password link of the account: one use of any of
 * them ends the others (a link in an old email or another inbox cannot undo the new password).
 */
export async function markUserResetTokensUsed(db: Db, userId: string) {
  await db
    .update(passwordResetTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
}
