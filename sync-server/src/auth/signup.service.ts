import { signupMessages } from '@platform/schema/auth/auth.messages';
import type { FieldError, SignupDto } from '@platform/schema/auth/auth.zod';
import { afterSignupPath } from '@platform/schema/auth/redirect.rules';
import type { Db } from '../db/open-database.ts';
import { isUniqueViolation } from '../db/postgres-errors.ts';
import {
  findOrganization,
  insertOrganizationWithOwner,
} from '../organizations/organizations.repository.ts';
import { SignupInvalid } from './auth.errors.ts';
import { insertGuardianLink } from './guardians.repository.ts';
import { insertCustomerMembership } from './memberships.repository.ts';
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
      if (orgId) await insertCustomerMembership(tx, userId, orgId);
      for (const child of dto.children ?? []) {
        const childId = await insertUser(tx, {
          email: child.email || null,
          firstName: child.firstName,
          lastName: child.lastName,
        });
        await insertGuardianLink(tx, { guardianUserId: userId, childUserId: childId, orgId });
      }
      await mergeUserAttributes(tx, userId, { lastProfile: { view: 'customer', orgId } });
      return {
        userId,
        view: 'customer',
        orgId,
        redirectTo: afterSignupPath('customer', dto.redirectTo),
      };
    });
  } catch (error) {
    // Two signups with one address at the same moment: the loser gets the ordinary answer.
    if (isUniqueViolation(error))
      throw new SignupInvalid([{ field: 'email', message: signupMessages.emailTaken }]);
    throw error;
  }
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
