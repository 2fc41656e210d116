import { signupMessages } from '@platform/schema/auth/auth.messages';
import type { FieldError, SignupDto } from '@platform/schema/auth/auth.zod';
import { afterSignupPath } from '@platform/schema/auth/redirect.rules';
import type { Db, Tx } from '../db/open-database.ts';
import { claimInvitedAccount } from '../crm/accept-invitation.service.ts';
import { isUniqueViolation } from '../db/postgres-errors.ts';
import {
  findOrganization,
  insertOrganizationWithOwner,
} from '../organizations/organizations.repository.ts';
import { SignupInvalid } from './auth.errors.ts';
import { insertGuardianLink } from './guardians.repository.ts';
import { enrolCustomer } from '../roster/roster.service.ts';
import { hashPassword } from './passwords.ts';
import type { SignedIn } from './login.service.ts';
import { findUsersByEmails, insertUser, mergeUserAttributes } from './users.repository.ts';

export type SignupOutcome = SignedIn & { redirectTo: string };

/**
 * spec §2 signup. A companyName makes an organisation signup (organisation, owner, staff with
 * every claim); otherwise a customer, optionally of dto.orgId, with children linked to them.
 * Everything is written in one transaction.
 */
export async function signUp(db: Db, dto: SignupDto): Promise<SignupOutcome> {
  if (dto.invitation && !dto.companyName)
    return acceptInvitation(db, { ...dto, invitation: dto.invitation });
  const errors = await findSignupConflicts(db, dto);
  if (errors.length > 0) throw new SignupInvalid(errors);
  const passwordHash = await hashPassword(dto.password);
  const person = {
    email: dto.email.toLowerCase(),
    passwordHash,
    firstName: dto.firstName,
    lastName: dto.lastName,
    middleName: dto.middleName || null,
  };
  try {
    return await db.transaction(async (tx) => {
      if (dto.companyName) {
        const userId = await insertUser(tx, person);
        const org = await insertOrganizationWithOwner(tx, userId, {
          label: dto.companyName,
          companyLocation: dto.companyLocation,
        });
        await mergeUserAttributes(tx, userId, { lastProfile: { view: 'org', orgId: org.id } });
        return {
          userId,
          view: 'org',
          orgId: org.id,
          redirectTo: afterSignupPath('organization', dto.redirectTo),
        };
      }
      const orgId = dto.orgId ?? null;
      const userId = await insertUser(tx, person);
      // A customer of an organisation (branded app, invitation) lands on its customer list,
      // with their children.
      if (orgId) await enrolCustomer(tx, orgId, { id: userId, ...person });
      await insertChildren(tx, userId, orgId, dto.children ?? []);
      await mergeUserAttributes(tx, userId, { lastProfile: { view: 'customer', orgId } });
      return {
        userId,
        view: 'customer',
        orgId,
        redirectTo: afterSignupPath('customer', dto.redirectTo, orgId),
      };
    });
  } catch (error) {
    // Two signups with one address at the same moment: the loser gets the ordinary answer.
    if (isUniqueViolation(error))
      throw new SignupInvalid([{ field: 'email', message: signupMessages.emailTaken }]);
    throw error;
  }
}

async function insertChildren(
  tx: Tx,
  guardianUserId: string,
  orgId: string | null,
  children: NonNullable<SignupDto['children']>,
) {
  for (const child of children) {
    const childPerson = {
      email: child.email || null,
      firstName: child.firstName,
      lastName: child.lastName,
    };
    const childId = await insertUser(tx, childPerson);
    await insertGuardianLink(tx, { guardianUserId, childUserId: childId, orgId });
    if (orgId) await enrolCustomer(tx, orgId, { id: childId, ...childPerson });
  }
}

/**
 * Signup from a CRM invitation link (decision 0012): claims the password-less account staff
 * created for this address instead of answering "email taken".
 */
async function acceptInvitation(
  db: Db,
  dto: SignupDto & { invitation: string },
): Promise<SignupOutcome> {
  const childEmails = (dto.children ?? [])
    .map((c) => c.email?.trim().toLowerCase())
    .filter(Boolean);
  const taken = await findUsersByEmails(db, childEmails as string[]);
  if (taken.length > 0 || new Set(childEmails).size < childEmails.length)
    throw new SignupInvalid(
      (dto.children ?? []).flatMap((child, index) =>
        child.email && taken.some((t) => t.email === child.email?.trim().toLowerCase())
          ? [{ field: `children.${index}.email`, message: signupMessages.emailTaken }]
          : [],
      ),
    );
  const passwordHash = await hashPassword(dto.password);
  const claim = await db.transaction(async (tx) => {
    const outcome = await claimInvitedAccount(tx, dto, passwordHash);
    if (!outcome.ok) return outcome;
    await insertChildren(tx, outcome.userId, outcome.orgId, dto.children ?? []);
    await mergeUserAttributes(tx, outcome.userId, {
      lastProfile: { view: 'customer', orgId: outcome.orgId },
    });
    return outcome;
  });
  if (!claim.ok) throw new SignupInvalid(claim.errors);
  return {
    userId: claim.userId,
    view: 'customer',
    orgId: claim.orgId,
    redirectTo: claim.redirectTo,
  };
}

/** Rules the schema cannot check alone: addresses in use, the organisation, children's place. */
async function findSignupConflicts(db: Db, dto: SignupDto): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  const email = dto.email.toLowerCase();
  const children = dto.children ?? [];
  const childEmails = children.map((child) => child.email?.trim().toLowerCase() || null);
  const taken = new Set(
    (
      await findUsersByEmails(db, [email, ...childEmails.filter((e): e is string => e !== null)])
    ).map((u) => u.email),
  );
  if (taken.has(email)) errors.push({ field: 'email', message: signupMessages.emailTaken });
  if (dto.companyName && children.length > 0) {
    errors.push({ field: 'children', message: signupMessages.childrenOnlyForCustomers });
  }
  if (!dto.companyName && dto.orgId && !(await findOrganization(db, dto.orgId))) {
    errors.push({ field: 'orgId', message: signupMessages.unknownOrganization });
  }
  const seen = new Set([email]);
  childEmails.forEach((childEmail, index) => {
    if (!childEmail) return;
    if (taken.has(childEmail) || seen.has(childEmail)) {
      errors.push({ field: `children.${index}.email`, message: signupMessages.emailTaken });
    }
    seen.add(childEmail);
  });
  return errors;
}
