import type { ProfileType } from '@platform/schema/auth/auth.zod';
import type { Db } from '../db/open-database.ts';
import { LoginFailed } from './auth.errors.ts';
import { listMemberships } from './memberships.repository.ts';
import { chooseProfile, type Profile } from './profile-choice.ts';
import { verifyPasswordWithinLimits } from './sign-in-limits.ts';
import { findUserByIdentifier, mergeUserAttributes, type UserRow } from './users.repository.ts';

export type LoginRequest = {
  identifier: string;
  password: string;
  profileType: ProfileType;
  profileOrgId?: string | null | undefined;
  ip: string;
};

export type SignedIn = Profile & { userId: string };

/**
 * Password log-in under the sign-in limits (sign-in-limits.ts), kept in the database and
 * shared by every server process. The limits count the account — email and username alike —
 * at the caller's address; an unknown name is counted as itself.
 */
export async function logIn(db: Db, request: LoginRequest): Promise<SignedIn> {
  const identifier = request.identifier.trim().toLowerCase();
  const user = await findUserByIdentifier(db, identifier);
  const valid = await verifyPasswordWithinLimits(
    db,
    {
      account: user?.id ?? `unknown:${identifier}`,
      ip: request.ip,
      passwordHash: user?.passwordHash,
    },
    request.password,
  );
  if (!user || !valid) throw new LoginFailed();
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
