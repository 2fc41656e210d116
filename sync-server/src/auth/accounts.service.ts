import type { Tx } from '../db/open-database.ts';
import { revokeUserSessions } from './sessions.repository.ts';
import { setPasswordHash } from './users.repository.ts';

/**
 * Accounts as other features meet them (decision 0053): CRM, families, team and settings find
 * and create people, link guardians and enrol customers through here, never through auth's
 * repositories. Plain reads and inserts pass through unchanged; what carries an auth rule is
 * a function below.
 */
export {
  findUserByEmail,
  findUserById,
  insertUser,
  mergeUserAttributes,
  type UserRow,
} from './users.repository.ts';
export { isAncestorOf, linkGuardian, unlinkGuardian } from './guardians.repository.ts';
export { insertCustomerMembership } from './memberships.repository.ts';

/**
 * A new password ends every session of the account — except, when it was changed from a
 * signed-in session, that one.
 */
export async function replacePassword(
  tx: Tx,
  userId: string,
  passwordHash: string,
  keptSessionId?: string,
): Promise<void> {
  await setPasswordHash(tx, userId, passwordHash);
  await revokeUserSessions(tx, userId, keptSessionId);
}
