import { z } from 'zod';
import type { CreateOrganizationInput } from '@platform/schema/organizations/organizations.zod';
import { companyInfoSchema } from '@platform/schema/auth/signup-form.rules';
import { googleLoginErrors } from '@platform/schema/auth/google.zod';
import { afterSignupPath, safeRedirectPath } from '@platform/schema/auth/redirect.rules';
import type { Db } from '../db/open-database.ts';
import { isUniqueViolation } from '../db/postgres-errors.ts';
import { createOrganizationIn, findOrganization } from '../organizations/organizations.service.ts';
import { enrolCustomer } from '../crm/roster.service.ts';
import { claimAccount } from '../access/claim-account.ts';
import { GoogleSignInFailed } from './auth.errors.ts';
import { revokeUserSessions } from './sessions.repository.ts';
import type { GoogleClaims, GoogleVerifier } from './google-token.ts';
import { signInAs, type SignedIn } from './login.service.ts';
import {
  findUserByEmail,
  findUserByGoogleSubject,
  findUserById,
  insertUser,
  linkGoogleSubject,
  mergeUserAttributes,
  type UserRow,
} from './users.repository.ts';

export type GoogleSignIn = {
  idToken: string;
  redirectTo: string | undefined;
  orgFields: string | undefined;
  /** The organisation whose branded app the person came from: a new account becomes its customer. */
  orgId?: string | undefined;
};

/**
 * Google sign-in: the account with this Google subject, else the one with this address when
 * Google vouches for it (then linked), else a new customer — or, with the organisation step
 * of the signup form (org_fields), a new organisation owner.
 */
export async function signInWithGoogle(
  db: Db,
  verify: GoogleVerifier,
  request: GoogleSignIn,
): Promise<SignedIn & { redirectTo: string }> {
  const claims = await verify(request.idToken);
  const organization = parseOrgFields(request.orgFields);
  let user = await findGoogleAccount(db, claims);
  const isNew = !user;
  // A unique violation means the same token was posted twice at once (double click): the
  // other request created the account, so this one signs into it.
  // Signing up from an organisation's branded app joins that organisation (as password signup
  // does); an unknown id is ignored rather than refusing the sign-in.
  const customerOf =
    !organization && request.orgId && (await findOrganization(db, request.orgId))
      ? request.orgId
      : null;
  user ??=
    (await createGoogleUser(db, claims, organization, customerOf)) ??
    (await findGoogleAccount(db, claims));
  if (!user)
    throw new GoogleSignInFailed(googleLoginErrors.invalid, 'account could not be created');
  const signedIn = await signInAs(db, user, 'use-latest');
  const redirectTo =
    isNew && organization
      ? afterSignupPath('organization', request.redirectTo)
      : isNew && customerOf
        ? afterSignupPath('customer', request.redirectTo, customerOf)
        : safeRedirectPath(request.redirectTo, '/dashboard');
  return { ...signedIn, redirectTo };
}

async function createGoogleUser(
  db: Db,
  claims: GoogleClaims,
  organization: CreateOrganizationInput | undefined,
  customerOf: string | null,
) {
  try {
    const id = await db.transaction(async (tx) => {
      const person = {
        // An unverified address is not stored: it could be someone else's.
        email: claims.email_verified ? (claims.email ?? null) : null,
        firstName: claims.given_name ?? claims.name ?? '',
        lastName: claims.family_name ?? '',
      };
      const userId = await insertUser(tx, {
        ...person,
        emailVerifiedAt: claims.email_verified ? new Date() : null,
        googleSubject: claims.sub,
        claimedAt: new Date(),
      });
      if (customerOf) {
        await enrolCustomer(tx, customerOf, { id: userId, ...person });
        await mergeUserAttributes(tx, userId, {
          lastProfile: { view: 'customer', orgId: customerOf },
        });
      }
      if (organization) {
        const org = await createOrganizationIn(tx, userId, organization);
        await mergeUserAttributes(tx, userId, { lastProfile: { view: 'org', orgId: org.id } });
      }
      return userId;
    });
    return findUserById(db, id);
  } catch (error) {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
}

async function findGoogleAccount(db: Db, claims: GoogleClaims): Promise<UserRow | undefined> {
  const bySubject = await findUserByGoogleSubject(db, claims.sub);
  if (bySubject) return bySubject;
  if (!claims.email) return undefined;
  const byEmail = await findUserByEmail(db, claims.email);
  if (!byEmail) return undefined;
  // An address Google has not verified, or an account already tied to another Google
  // identity, must not hand this account over.
  if (!claims.email_verified || byEmail.googleSubject) {
    throw new GoogleSignInFailed(googleLoginErrors.invalid, 'email belongs to another account');
  }
  await db.transaction(async (tx) => {
    await linkGoogleSubject(tx, byEmail.id, claims.sub);
    // Google vouches for the address: an account someone else made for it becomes its owner's
    // (decision 0035), and whoever was switched into it is signed out.
    if (await claimAccount(tx, byEmail.id, 'google')) await revokeUserSessions(tx, byEmail.id);
  });
  return byEmail;
}

/**
 * The organisation step of signup sent along with the Google token. Its rule is signup's
 * ('Company name is required.'); org fields that were sent but are unreadable refuse the
 * sign-in instead of quietly making the person a customer.
 */
function parseOrgFields(raw: string | undefined): CreateOrganizationInput | undefined {
  if (!raw) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    value = null;
  }
  const parsed = companyInfoSchema
    .extend({ companyLocation: z.string().trim().max(200).optional() })
    .safeParse(value);
  if (!parsed.success)
    throw new GoogleSignInFailed(googleLoginErrors.invalid, 'organisation fields are invalid');
  return parsed.data;
}
