import { fullName } from '@platform/schema/app/full-name.rules';
import { familyMessages } from '@platform/schema/families/families.messages';
import {
  assertMayActFor,
  principalOf,
  type Principal,
  type RefusalReason,
} from '../access/act-for.ts';
import type { Db } from '../db/open-database.ts';
import { Forbidden } from '../plugins/domain-errors.ts';
import type { SessionContext } from '../plugins/session.ts';

/** Who acts on a family, read from their session. */
export type FamilyActor = Principal & {
  name: string;
  /** The person at the keyboard, for the audit trail: an admin or a guardian behind the session. */
  auditUserId: string;
};

/**
 * In whose name an action runs (decided by access/act-for.ts). `self` and `guardian`: the
 * family; `orgId` is the organisation of a customer session, whose customer list new people
 * they make join (null in any other session). `staff`: staff of `orgId`.
 */
export type FamilyAuthority =
  | { as: 'self' | 'guardian'; orgId: string | null }
  | { as: 'staff'; orgId: string };

export function familyActorOf(current: SessionContext): FamilyActor {
  const principal = principalOf(current);
  return {
    ...principal,
    name: fullName(current.user),
    auditUserId: principal.switchedFrom ?? principal.userId,
  };
}

/** The family's own context: a customer session's organisation. */
export const familyOrgOf = (actor: FamilyActor) => (actor.view === 'customer' ? actor.orgId : null);

export const familyRefusalMessage = (reason: RefusalReason): string =>
  reason === 'unknown-person'
    ? familyMessages.notFound
    : reason === 'owner-decides'
      ? familyMessages.signsInThemselves
      : familyMessages.notAllowed;

/** The authority `actor` has over `personId` for `action`, or the refusal (404 / 403). */
export async function authorityOver(
  db: Db,
  actor: FamilyActor,
  personId: string,
  action: 'read-family' | 'manage-family',
): Promise<FamilyAuthority> {
  const grant = await assertMayActFor(db, actor, personId, action, familyRefusalMessage);
  switch (grant.as) {
    case 'staff':
      return grant;
    case 'self':
    case 'guardian':
      return { as: grant.as, orgId: familyOrgOf(actor) };
    case 'admin': // granted for switching only; never reaches a family action
      throw new Forbidden(familyMessages.notAllowed);
  }
}

/**
 * A person decides as the owner of their account only in their own session: a guardian or an
 * admin who switched into it acts for it but confirms nothing in the owner's name.
 */
export const isOwnerActing = (actor: FamilyActor, personId: string) =>
  actor.userId === personId && actor.switchedFrom === null;
