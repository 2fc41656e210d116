import { fullName } from '@platform/schema/app/full-name.rules';
import { familyMessages } from '@platform/schema/families/families.messages';
import type { FamilyMember, guardiansRequestSchema } from '@platform/schema/families/families.zod';
import type { z } from 'zod';
import type { OutgoingEmail } from '../adapters/mailer/port.ts';
import { findUserByEmail, findUserById, insertUser, unlinkGuardian } from '../auth/accounts.service.ts';
import { Forbidden, NotFound } from '../plugins/domain-errors.ts';
import { restampRosterItemsOf } from '../crm/roster.service.ts';
import {
  authorityOver,
  familyOrgOf,
  isOwnerActing,
  type FamilyActor,
  type FamilyAuthority,
} from './families.access.ts';
import { guardianAddedEmail, guardianLinkedEmail } from './families.email.ts';
import {
  confirmLink,
  findLink,
  listChildrenOf,
  listGuardiansOf,
} from './families.repository.ts';
import {
  auditFamilyChange,
  deliverEmails,
  issueSetPasswordLink,
  linkInFamily,
  madeBy,
  orgLabelOf,
  retryOnceOnUniqueViolation,
  settingsLinkOf,
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
      const authority = await authorityOver(deps.db, actor, input.userId, 'read-family');
      return listGuardiansOf(deps.db, input.userId, staffOrg(authority));
    }
    case 'get-guardians-of': {
      const authority = await authorityOver(deps.db, actor, input.guardianUserId, 'read-family');
      return listChildrenOf(deps.db, input.guardianUserId, staffOrg(authority));
    }
    case 'add-guardian':
      return addGuardian(deps, actor, input);
    case 'remove-guardian':
      return removeGuardian(deps, actor, input);
    case 'confirm-guardian':
      return confirmGuardian(deps, actor, input);
  }
}

/** Staff see only their organisation's customers among a family (decision 0003). */
const staffOrg = (authority: FamilyAuthority) =>
  authority.as === 'staff' ? authority.orgId : null;

/**
 * spec §5 Guardian add: links the account that has the address, or creates one without a
 * password and emails it a set-password link (unless skipResetPasswordMail). Idempotent: a
 * guardian already linked is answered as is. The answer repeats what was typed, and so do the
 * family lists — an account that had the address keeps the typed names on the link: nothing
 * tells the actor whether the address had an account, nor its owner's names (issue 11, A13).
 * The link needs no confirmation by the guardian: it gives the guardian power over the child,
 * whose owner consented; the guardian is told by email and may remove it (decision 0035).
 */
async function addGuardian(
  deps: FamilyDeps,
  actor: FamilyActor,
  input: Action<'add-guardian'>,
): Promise<FamilyMember> {
  const authority = await authorityOver(deps.db, actor, input.userId, 'manage-family');
  const child = await findUserById(deps.db, input.userId);
  if (!child) throw new NotFound(familyMessages.notFound);
  const orgLabel = await orgLabelOf(deps.db, authority.orgId);
  const dto = input.signupDto;
  const email = dto.email.toLowerCase();
  const typed = { firstName: dto.firstName, lastName: dto.lastName };
  const person = { email, ...typed };
  const outcome = await retryOnceOnUniqueViolation(() =>
    deps.db.transaction(async (tx) => {
      const existing = await findUserByEmail(tx, email);
      const guardian = existing ?? {
        id: await insertUser(tx, { ...person, ...madeBy(authority, actor) }),
        ...person,
      };
      const linked = await linkInFamily(tx, {
        authority,
        actor,
        guardian,
        child,
        action: 'family.add-guardian',
        field: 'signupDto.email',
        created: { guardian: !existing, child: false },
        ...(existing ? { requestedName: { of: 'guardian', ...typed } } : {}),
        detail: { createdAccount: !existing },
      });
      const actorIsChild = actor.userId === child.id;
      let mail: OutgoingEmail | null = null;
      if (existing && linked && existing.email)
        mail = guardianLinkedEmail({
          to: existing.email,
          orgId: authority.orgId,
          orgLabel,
          recipientFirstName: existing.firstName,
          actorName: actor.name,
          childName: fullName(child),
          actorIsChild,
          settingsLink: settingsLinkOf(deps.publicUrl, authority.orgId),
        });
      else if (!existing && linked && !input.skipResetPasswordMail) {
        mail = guardianAddedEmail({
          to: email,
          orgId: authority.orgId,
          orgLabel,
          recipientFirstName: guardian.firstName,
          actorName: actor.name,
          childName: fullName(child),
          actorIsChild,
          link: await issueSetPasswordLink(tx, deps.publicUrl, guardian.id),
        });
      }
      if (mail) await deliverEmails(deps, tx, [mail]);
      const awaitingConfirmation = (await findLink(tx, guardian.id, child.id))?.confirmedAt === null;
      return { guardian: { id: guardian.id, ...person, awaitingConfirmation } };
    }),
  );
  return outcome.guardian;
}

/**
 * Removes the link only; both accounts stay. Removing a link that is not there succeeds (a
 * retried request).
 */
async function removeGuardian(
  deps: FamilyDeps,
  actor: FamilyActor,
  input: Action<'remove-guardian'>,
): Promise<{ success: true }> {
  const { userId, guardianUserId } = input;
  const authority = await removalAuthority(deps, actor, userId, guardianUserId);
  await deps.db.transaction(async (tx) => {
    if (await unlinkGuardian(tx, guardianUserId, userId))
      await auditFamilyChange(tx, actor, authority, 'family.remove-guardian', userId, {
        guardianUserId,
      });
  });
  return { success: true };
}

/**
 * Who may remove a guardian link (decision 0035):
 * - the child's owner, in their own session;
 * - the link's guardian, withdrawing it — in their own session, or as the person at the
 *   keyboard of a session switched into the child (they take themself out);
 * - for a child without an email (the family's account), whoever may manage its family;
 * - staff, on an account they act for, only links made in their organisation's context.
 * A child with an email decides who their guardians are: another guardian, or anyone switched
 * into the account, may not remove one (403).
 */
async function removalAuthority(
  deps: FamilyDeps,
  actor: FamilyActor,
  userId: string,
  guardianUserId: string,
): Promise<FamilyAuthority> {
  const own: FamilyAuthority = { as: 'self', orgId: familyOrgOf(actor) };
  if (isOwnerActing(actor, userId) || isOwnerActing(actor, guardianUserId)) return own;
  if (actor.switchedFrom !== null && guardianUserId === actor.switchedFrom) return own;
  const authority = await authorityOver(deps.db, actor, userId, 'manage-family');
  if (authority.as === 'staff') {
    const link = await findLink(deps.db, guardianUserId, userId);
    if (link && link.orgId !== authority.orgId) throw new Forbidden(familyMessages.notAllowed);
    return authority;
  }
  const child = await findUserById(deps.db, userId);
  if (!child) throw new NotFound(familyMessages.notFound);
  if (child.email !== null) throw new Forbidden(familyMessages.onlyOwnerRemoves);
  return authority;
}

/**
 * The owner of an account confirms a guardian someone else linked (decision 0035): only in
 * their own session — a guardian or admin switched into it cannot. From then on the guardian
 * may act for the account, and the guardian's devices replicate it.
 */
async function confirmGuardian(
  deps: FamilyDeps,
  actor: FamilyActor,
  input: Action<'confirm-guardian'>,
): Promise<{ success: true }> {
  if (!isOwnerActing(actor, input.userId))
    throw new Forbidden(familyMessages.onlyOwnerConfirms);
  const link = await findLink(deps.db, input.guardianUserId, input.userId);
  if (!link) throw new NotFound(familyMessages.notFound);
  await deps.db.transaction(async (tx) => {
    const link = {
      guardianUserId: input.guardianUserId,
      childUserId: input.userId,
      confirmedByUserId: actor.userId,
    };
    if (!(await confirmLink(tx, link))) return;
    await restampRosterItemsOf(tx, [input.userId], [input.guardianUserId]);
    await auditFamilyChange(
      tx,
      actor,
      { as: 'self', orgId: familyOrgOf(actor) },
      'family.confirm-guardian',
      input.userId,
      { guardianUserId: input.guardianUserId },
    );
  });
  return { success: true };
}
