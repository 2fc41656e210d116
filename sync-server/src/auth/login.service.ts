import type { ProfileType } from '@platform/schema/auth/auth.zod';
import type { Db } from '../db/open-database.ts';
import { LoginFailed, TooManyLoginAttempts } from './auth.errors.ts';
import {
  countRecentFailures,
  insertFailedAttempt,
  markAttemptSucceeded,
} from './login-attempts.repository.ts';
import { listMemberships } from './memberships.repository.ts';
import { verifyPassword } from './passwords.ts';
import { chooseProfile, type Profile } from './profile-choice.ts';
import { findUserByIdentifier, mergeUserAttributes, type UserRow } from './users.repository.ts';

export const LOGIN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_IDENTIFIER = 10;
export const MAX_FAILURES_PER_IP = 50;

export type LoginRequest = {
  identifier: string;
  password: string;
  profileType: ProfileType;
  profileOrgId?: string | null | undefined;
  ip: string;
};

export type SignedIn = Profile & { userId: string };

/**
 * Password log-in with limits kept in the database (shared by every server process). The
 * attempt is written as a failure *before* counting, so concurrent guesses all see each other
 * and a burst cannot slip past the limit; a correct password flips it to succeeded.
 */
export async function logIn(db: Db, request: LoginRequest): Promise<SignedIn> {
  const identifier = request.identifier.trim().toLowerCase();
  const attemptId = await insertFailedAttempt(db, identifier, request.ip);
  const failures = await countRecentFailures(
    db,
    identifier,
    request.ip,
    new Date(Date.now() - LOGIN_WINDOW_MS),
  );
  if (failures.byIdentifier > MAX_FAILURES_PER_IDENTIFIER || failures.byIp > MAX_FAILURES_PER_IP) {
    throw new TooManyLoginAttempts();
  }
  const user = await findUserByIdentifier(db, identifier);
  const valid = await verifyPassword(user?.passwordHash, request.password);
  if (!user || !valid) throw new LoginFailed();
  await markAttemptSucceeded(db, attemptId);
  return signInAs(db, user, request.profileType, request.profileOrgId);
}

/** Picks the profile a sign-in lands on and remembers it for the next 'use-latest'. */
export async function signInAs(
  db: Db,
  user: UserRow,
  profileType: ProfileType,
  profileOrgId?: string | null,
): Promise<SignedIn> {
  const memberships = await listMemberships(db, user.id);
  const profile = chooseProfile(
    memberships,
    profileType,
    profileOrgId,
    user.attributes.lastProfile,
  );
  await mergeUserAttributes(db, user.id, { lastProfile: profile });
  return { userId: user.id, ...profile };
}
