import { fullName } from '@platform/schema/app/full-name.rules';
import { signupMessages } from '@platform/schema/auth/auth.messages';
import type { FieldError, SignupDto } from '@platform/schema/auth/auth.zod';
import { afterSignupPath } from '@platform/schema/auth/redirect.rules';
import { childEmailErrors, normalEmail } from '@platform/schema/families/families.rules';
import type { FamilyActor } from '../families/families.access.ts';
import { addChildrenInFamily, orgLabelOf } from '../families/families.service.ts';
import type { Mailer } from '../adapters/mailer/port.ts';
import type { Db, Tx } from '../db/open-database.ts';
import { claimInvitedAccount } from '../crm/accept-invitation.service.ts';
import { isUniqueViolation } from '../db/postgres-errors.ts';
import { createOrganizationIn, findOrganization } from '../organizations/organizations.service.ts';
import { SignupInvalid } from './auth.errors.ts';
import { enrolCustomer } from '../crm/roster.service.ts';
import { hashPassword } from './passwords.ts';
import type { SignedIn } from './login.service.ts';
import { findUsersByEmails, insertUser, mergeUserAttributes } from './users.repository.ts';

export type SignupOutcome = SignedIn & { redirectTo: string };

/** What signup needs from the app: notices to children's addresses are queued with the signup. */
export type SignupDeps = { db: Db; mailer: Mailer; publicUrl: string };

/**
 * spec §2 signup. A companyName makes an organisation signup (organisation, owner, staff with
 * every claim); otherwise a customer, optionally of dto.orgId, with children linked to them.
 * Everything is written in one transaction.
 */
export async function signUp(deps: SignupDeps, dto: SignupDto): Promise<SignupOutcome> {
  const { db } = deps;
  if (dto.invitation && !dto.companyName)
    return acceptInvitation(deps, { ...dto, invitation: dto.invitation });
  const errors = await findSignupConflicts(db, dto);
  if (errors.length > 0) throw new SignupInvalid(errors);
  const passwordHash = await hashPassword(dto.password);
  const person = {
    email: dto.email.toLowerCase(),
    passwordHash,
    firstName: dto.firstName,
    lastName: dto.lastName,
    middleName: dto.middleName || null,
    // Signing up with an address is its owner making their own account.
    claimedAt: new Date(),
  };
  try {
    return await db.transaction(async (tx) => {
      if (dto.companyName) {
        const userId = await insertUser(tx, person);
        const org = await createOrganizationIn(tx, userId, {
          companyName: dto.companyName,
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
      await insertChildren(tx, deps, { id: userId, ...person }, orgId, dto.children ?? []);
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

/**
 * spec §6: only customers add children at signup — through the families' one path, so an
 * address that already has an account becomes a request its owner confirms (decision 0035).
 * No email is sent from signup: children with an address set their password through Forgot
 * password, as before.
 */
async function insertChildren(
  tx: Tx,
  deps: SignupDeps,
  guardian: { id: string; firstName: string; lastName: string; email: string | null },
  orgId: string | null,
  children: NonNullable<SignupDto['children']>,
): Promise<void> {
  if (children.length === 0) return;
  await addChildrenInFamily(
    tx,
    {
      deps,
      authority: { as: 'self', orgId },
      actor: newCustomerActor(guardian, orgId),
      guardian,
      orgLabel: await orgLabelOf(tx, orgId),
      sendSetPasswordMail: false,
    },
    children.map((child) => ({
      firstName: child.firstName,
      lastName: child.lastName,
      email: normalEmail(child.email),
      dateOfBirth: child.dateOfBirth || null,
    })),
  );
}

/** The person who has just signed up, acting on their own family. */
const newCustomerActor = (
  person: { id: string; firstName: string; lastName: string },
  orgId: string | null,
): FamilyActor => ({
  userId: person.id,
  view: 'customer',
  orgId,
  claims: [],
  role: 'user',
  switchedFrom: null,
  name: fullName(person),
  auditUserId: person.id,
});

/**
 * Signup from a CRM invitation link (decision 0012): claims the password-less account staff
 * created for this address instead of answering "email taken".
 */
async function acceptInvitation(
  deps: SignupDeps,
  dto: SignupDto & { invitation: string },
): Promise<SignupOutcome> {
  const { db } = deps;
  const errors = childConflicts(dto);
  if (errors.length > 0) throw new SignupInvalid(errors);
  const passwordHash = await hashPassword(dto.password);
  const claim = await db.transaction(async (tx) => {
    const outcome = await claimInvitedAccount(tx, dto, passwordHash);
    if (!outcome.ok) return outcome;
    const guardian = { ...dto, id: outcome.userId, email: dto.email.trim().toLowerCase() };
    await insertChildren(tx, deps, guardian, outcome.orgId, dto.children ?? []);
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

/** Rules the schema cannot check alone: the address in use, the organisation, children's place. */
async function findSignupConflicts(db: Db, dto: SignupDto): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  // spec §8: signup says when its own address has an account (with Forgot your password?).
  if ((await findUsersByEmails(db, [dto.email.toLowerCase()])).length > 0)
    errors.push({ field: 'email', message: signupMessages.emailTaken });
  if (dto.companyName && (dto.children ?? []).length > 0) {
    errors.push({ field: 'children', message: signupMessages.childrenOnlyForCustomers });
  }
  if (!dto.companyName && dto.orgId && !(await findOrganization(db, dto.orgId))) {
    errors.push({ field: 'orgId', message: signupMessages.unknownOrganization });
  }
  return [...errors, ...childConflicts(dto)];
}

/**
 * The children's addresses: none repeats, none is the person's own. Whether one has an account
 * already is not said (decision 0035): that child is asked to confirm instead.
 */
function childConflicts(dto: SignupDto): FieldError[] {
  const emails = (dto.children ?? []).map((child) => normalEmail(child.email));
  return childEmailErrors(emails, {
    prefix: 'children',
    guardianEmail: normalEmail(dto.email),
  });
}
