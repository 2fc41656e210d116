import { familyMessages } from '@platform/schema/families/families.messages';
import type { FamilyMember, guardiansRequestSchema } from '@platform/schema/families/families.zod';
import type { z } from 'zod';
import type { OutgoingEmail } from '../adapters/mailer/port.ts';
import { unlinkGuardian } from '../auth/guardians.repository.ts';
import { findUserByEmail, findUserById, insertUser } from '../auth/users.repository.ts';
import { NotFound } from '../plugins/domain-errors.ts';
import {
  authorityOver,
  selfAuthority,
  staffAuthority,
  type FamilyActor,
  type FamilyAuthority,
} from './families.access.ts';
import { guardianAddedEmail, guardianLinkedEmail } from './families.email.ts';
import { listChildrenOf, listGuardiansOf } from './families.repository.ts';
import {
  auditFamilyChange,
  deliverEmails,
  fullName,
  issueSetPasswordLink,
  linkInFamily,
  orgLabelOf,
  retryOnceOnUniqueViolation,
  toMember,
  type FamilyDeps,
} from './families.service.ts';

type GuardiansRequest = z.output<typeof guardiansRequestSchema>;
type Action<A extends GuardiansRequest['action']> = Extract<GuardiansRequest, { action: A }>;

/** spec §7 POST /api/guardians. */
export async function runGuardiansAction(
  deps: FamilyDeps,
  actor: FamilyActor,
  input: GuardiansRequest,
): Promise<FamilyMember | FamilyMember[] | { success: true }> {
  switch (input.action) {
    case 'get-guardians': {
      const authority = await authorityOver(deps.db, actor, input.userId);
      return listGuardiansOf(deps.db, input.userId, staffOrg(authority));
    }
    case 'get-guardians-of': {
      const authority = await authorityOver(deps.db, actor, input.guardianUserId);
      return listChildrenOf(deps.db, input.guardianUserId, staffOrg(authority));
    }
    case 'add-guardian':
      return addGuardian(deps, actor, input);
    case 'remove-guardian':
      return removeGuardian(deps, actor, input);
  }
}

/** Staff see only their organisation's customers among a family (decision 0003). */
const staffOrg = (authority: FamilyAuthority) =>
  authority.as === 'staff' ? authority.orgId : null;

/**
 * spec §5 Guardian add: links the account that has the address, or creates one without a
 * password and emails it a set-password link (unless skipResetPasswordMail). Idempotent: a
 * guardian already linked is answered as is.
 */
async function addGuardian(
  deps: FamilyDeps,
  actor: FamilyActor,
  input: Action<'add-guardian'>,
): Promise<FamilyMember> {
  const authority = await authorityOver(deps.db, actor, input.userId);
  const child = await findUserById(deps.db, input.userId);
  if (!child) throw new NotFound(familyMessages.notFound);
  const orgLabel = await orgLabelOf(deps.db, authority.orgId);
  const dto = input.signupDto;
  const email = dto.email.toLowerCase();
  const outcome = await retryOnceOnUniqueViolation(() =>
    deps.db.transaction(async (tx) => {
      const existing = await findUserByEmail(tx, email);
      const person = { email, firstName: dto.firstName, lastName: dto.lastName };
      const guardian = existing ?? { id: await insertUser(tx, person), ...person };
      const linked = await linkInFamily(tx, {
        authority,
        actor,
        guardian,
        child,
        action: 'family.add-guardian',
        field: 'signupDto.email',
        created: { guardian: !existing, child: false },
        detail: { createdAccount: !existing },
      });
      let mail: OutgoingEmail | null = null;
      if (existing && linked && existing.email)
        mail = guardianLinkedEmail({
          to: existing.email,
          orgId: authority.orgId,
          orgLabel,
          recipientFirstName: existing.firstName,
          actorName: actor.name,
          childName: fullName(child),
          actorIsChild: actor.userId === child.id,
          settingsLink: authority.orgId
            ? `${deps.publicUrl}/dashboard-customer/${authority.orgId}/settings`
            : `${deps.publicUrl}/dashboard/settings`,
        });
      else if (!existing && linked && !input.skipResetPasswordMail) {
        mail = guardianAddedEmail({
          to: email,
          orgId: authority.orgId,
          orgLabel,
          recipientFirstName: guardian.firstName,
          actorName: actor.name,
          childName: fullName(child),
          actorIsChild: actor.userId === child.id,
          link: await issueSetPasswordLink(tx, deps.publicUrl, guardian.id),
        });
      }
      if (mail) await deliverEmails(deps, tx, [mail]);
      return { guardian: toMember(guardian), mail };
    }),
  );
  return outcome.guardian;
}

/**
 * Removes the link only; both accounts stay. The child removes a guardian, the guardian
 * disconnects a child, or staff act for two of their customers. Removing a link that is not
 * there succeeds (a retried request).
 */
async function removeGuardian(
  deps: FamilyDeps,
  actor: FamilyActor,
  input: Action<'remove-guardian'>,
): Promise<{ success: true }> {
  const { userId, guardianUserId } = input;
  const authority =
    userId === actor.userId || guardianUserId === actor.userId
      ? selfAuthority(actor)
      : await staffAuthority(deps.db, actor, [userId, guardianUserId]);
  await deps.db.transaction(async (tx) => {
    if (await unlinkGuardian(tx, guardianUserId, userId))
      await auditFamilyChange(tx, actor, authority, 'family.remove-guardian', userId, {
        guardianUserId,
      });
  });
  return { success: true };
}
