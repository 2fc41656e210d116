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
import { findUserById } from '../auth/accounts.service.ts';
import { Forbidden, NotFound } from '../plugins/domain-errors.ts';
import { authorityOver, type FamilyActor } from './families.access.ts';
import { FamilyFormInvalid } from './families.errors.ts';
import {
  addChildrenInFamily,
  linkInFamily,
  orgLabelOf,
  retryOnceOnUniqueViolation,
  toMember,
  type FamilyDeps,
} from './families.service.ts';

type ValidateChildInput = z.output<typeof validateChildRequestSchema>;
type CreateChildrenInput = z.output<typeof createChildrenRequestSchema>;
type AttachChildInput = z.output<typeof attachChildRequestSchema>;

/**
 * spec §5 Child for a list of rows. Rows are named `${prefix}.<index>`. `children` holds the
 * rows as entered, with normalised addresses. No database read: whether an address is in use
 * is nobody's business here (decision 0035).
 */
function checkChildren(rows: readonly unknown[], prefix: string, guardianEmail: string | null) {
  const { entries, errors } = parseChildEntries(rows, prefix);
  const emails = entries.map((entry) => normalEmail(entry?.email));
  errors.push(...childEmailErrors(emails, { prefix, guardianEmail }));
  const children = entries.map((entry, index) => ({
    firstName: entry?.firstName ?? '',
    lastName: entry?.lastName ?? '',
    email: emails[index] ?? null,
    dateOfBirth: entry?.dateOfBirth || null,
  }));
  return { errors, children };
}

/**
 * spec §7 validate-child, for the signup page before any account exists. It answers from the
 * form alone: nothing in it depends on which addresses have accounts.
 */
export function validateChildren(input: ValidateChildInput): ValidateChildResponse {
  const guardianEmail = normalEmail(input.guardianEmail);
  const { errors } = checkChildren(input.children, 'children', guardianEmail);
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
 * with an email gets a set-password link unless skipResetPasswordMail; an address that has an
 * account already gets a request to confirm the guardian instead.
 */
export async function createChildren(
  deps: FamilyDeps,
  actor: FamilyActor,
  input: CreateChildrenInput,
): Promise<FamilyMember[]> {
  const authority = await authorityOver(deps.db, actor, input.guardianUserId, 'manage-family');
  const guardianRow = await findUserById(deps.db, input.guardianUserId);
  if (!guardianRow) throw new NotFound(familyMessages.notFound);
  const guardian = toMember(guardianRow);
  const { errors, children } = checkChildren(
    input.signupDtos,
    'signupDtos',
    normalEmail(guardian.email),
  );
  if (errors.length > 0) throw new FamilyFormInvalid(errors);
  const orgLabel = await orgLabelOf(deps.db, authority.orgId);
  return retryOnceOnUniqueViolation(() =>
    deps.db.transaction((tx) =>
      addChildrenInFamily(
        tx,
        {
          deps,
          authority,
          actor,
          guardian,
          orgLabel,
          sendSetPasswordMail: !input.skipResetPasswordMail,
        },
        children,
      ),
    ),
  );
}

/**
 * spec §6: staff attach an account their organisation made (and nobody has claimed) as the
 * child of one of their customers. The child's owner confirms the link if the child has an email.
 */
export async function attachChild(
  deps: FamilyDeps,
  actor: FamilyActor,
  input: AttachChildInput,
): Promise<{ success: true }> {
  if (actor.view !== 'org') throw new Forbidden(familyMessages.notAllowed);
  const authority = await authorityOver(deps.db, actor, input.childUserId, 'manage-family');
  await authorityOver(deps.db, actor, input.guardianUserId, 'read-family');
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
