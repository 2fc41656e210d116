import { signupDtoSchema } from '@platform/schema/auth/auth.zod';
import { signupMessages } from '@platform/schema/auth/auth.messages';
import { familyMessages } from '@platform/schema/families/families.messages';
import {
  childEmailErrors,
  normalEmail,
  parseChildEntries,
} from '@platform/schema/families/families.rules';
import type {
  attachChildRequestSchema,
  createChildrenRequestSchema,
  FamilyMember,
  validateChildRequestSchema,
  ValidateChildResponse,
} from '@platform/schema/families/families.zod';
import type { z } from 'zod';
import type { OutgoingEmail } from '../adapters/mailer/port.ts';
import { findUserById, findUsersByEmails, insertUser } from '../auth/users.repository.ts';
import type { Db } from '../db/open-database.ts';
import { isUniqueViolation } from '../db/postgres-errors.ts';
import { Forbidden, NotFound } from '../plugins/domain-errors.ts';
import { authorityOver, staffAuthority, type FamilyActor } from './families.access.ts';
import { childAccountEmail } from './families.email.ts';
import { FamilyFormInvalid } from './families.errors.ts';
import {
  deliverEmails,
  fullName,
  issueSetPasswordLink,
  linkInFamily,
  orgLabelOf,
  toMember,
  type FamilyDeps,
} from './families.service.ts';

type ValidateChildInput = z.output<typeof validateChildRequestSchema>;
type CreateChildrenInput = z.output<typeof createChildrenRequestSchema>;
type AttachChildInput = z.output<typeof attachChildRequestSchema>;

/**
 * spec §5 Child for a list of rows, with what the database knows: addresses in use. Rows are
 * named `${prefix}.<index>`. `children` holds the rows as entered, with normalised addresses.
 */
async function checkChildren(
  db: Db,
  rows: readonly unknown[],
  prefix: string,
  guardianEmail: string | null,
) {
  const { entries, errors } = parseChildEntries(rows, prefix);
  const emails = entries.map((entry) => normalEmail(entry?.email));
  const wanted = emails.filter((email): email is string => email !== null);
  const taken = new Set((await findUsersByEmails(db, wanted)).map((row) => row.email ?? ''));
  errors.push(...childEmailErrors(emails, { prefix, guardianEmail, taken }));
  const children = entries.map((entry, index) => ({
    firstName: entry?.firstName ?? '',
    lastName: entry?.lastName ?? '',
    email: emails[index] ?? null,
  }));
  return { errors, children };
}

/**
 * spec §7 validate-child, for the signup page before any account exists. It tells no more
 * than signup itself does: whether an address already has an account.
 */
export async function validateChildren(
  db: Db,
  input: ValidateChildInput,
): Promise<ValidateChildResponse> {
  const guardianEmail = normalEmail(input.guardianEmail);
  const { errors } = await checkChildren(db, input.children, 'children', guardianEmail);
  // The signup page's own address rule and text: the guardian is the person signing up.
  if (
    !input.validateChildrenOnly &&
    !signupDtoSchema.shape.email.safeParse(input.guardianEmail).success
  )
    errors.unshift({ field: 'guardianEmail', message: signupMessages.invalidEmail });
  return errors.length > 0
    ? { success: false, message: familyMessages.formInvalid, errors }
    : { success: true, message: familyMessages.childrenValid, errors: [] };
}

/**
 * spec §7 create-children: every child valid or nothing is created (one transaction). A child
 * with an email gets a set-password link unless skipResetPasswordMail.
 */
export async function createChildren(
  deps: FamilyDeps,
  actor: FamilyActor,
  input: CreateChildrenInput,
): Promise<FamilyMember[]> {
  const authority = await authorityOver(deps.db, actor, input.guardianUserId);
  const guardianRow = await findUserById(deps.db, input.guardianUserId);
  if (!guardianRow) throw new NotFound(familyMessages.notFound);
  const guardian = toMember(guardianRow);
  const { errors, children } = await checkChildren(
    deps.db,
    input.signupDtos,
    'signupDtos',
    normalEmail(guardian.email),
  );
  if (errors.length > 0) throw new FamilyFormInvalid(errors);
  const orgLabel = await orgLabelOf(deps.db, authority.orgId);
  const created = await deps.db
    .transaction(async (tx) => {
      const members: FamilyMember[] = [];
      const mails: OutgoingEmail[] = [];
      for (const [index, person] of children.entries()) {
        const child = { id: await insertUser(tx, person), ...person };
        const link = { authority, actor, guardian, child, action: 'family.create-child' as const };
        await linkInFamily(tx, {
          ...link,
          field: `signupDtos.${index}`,
          created: { guardian: false, child: true },
        });
        members.push(child);
        if (child.email && !input.skipResetPasswordMail)
          mails.push(
            childAccountEmail({
              to: child.email,
              orgId: authority.orgId,
              orgLabel,
              recipientFirstName: child.firstName,
              actorName: actor.name,
              guardianName: fullName(guardian),
              actorIsGuardian: actor.userId === guardian.id,
              link: await issueSetPasswordLink(tx, deps.publicUrl, child.id),
            }),
          );
      }
      await deliverEmails(deps, tx, mails);
      return { members, mails };
    })
    .catch((error: unknown) => {
      // An address taken between the check and the insert: the same answer the check gives.
      if (!isUniqueViolation(error)) throw error;
      throw new FamilyFormInvalid([
        { field: 'signupDtos', message: familyMessages.childEmailTaken },
      ]);
    });
  return created.members;
}

/** spec §6: staff only attach an existing account (both their customers) as a child. */
export async function attachChild(
  deps: FamilyDeps,
  actor: FamilyActor,
  input: AttachChildInput,
): Promise<{ success: true }> {
  if (actor.view !== 'org') throw new Forbidden(familyMessages.notAllowed);
  const authority = await staffAuthority(deps.db, actor, [input.guardianUserId, input.childUserId]);
  const [guardian, child] = await Promise.all([
    findUserById(deps.db, input.guardianUserId),
    findUserById(deps.db, input.childUserId),
  ]);
  if (!guardian || !child) throw new NotFound(familyMessages.notFound);
  await deps.db.transaction((tx) =>
    linkInFamily(tx, {
      authority,
      actor,
      guardian: toMember(guardian),
      child: toMember(child),
      action: 'family.attach-child',
      field: 'childUserId',
      created: { guardian: false, child: false },
    }),
  );
  return { success: true };
}
