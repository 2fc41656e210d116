import { familyMessages } from '@platform/schema/families/families.messages';
import type { Db } from '../db/open-database.ts';
import { Forbidden, NotFound } from '../plugins/domain-errors.ts';
import type { SessionContext } from '../plugins/session.ts';
import { customersAmong } from './families.repository.ts';

/** Who acts on a family, read from their session. */
export type FamilyActor = {
  userId: string;
  name: string;
  /** The person at the keyboard, for the audit trail: an admin or a guardian behind the session. */
  auditUserId: string;
  view: 'org' | 'customer';
  orgId: string | null;
  claims: readonly string[];
};

/**
 * In whose name an action runs. `self`: a person on their own family; `orgId` is the
 * organisation of a customer session, whose customer list the people they link join (null in
 * any other session). `staff`: staff of `orgId` acting for its customers.
 */
export type FamilyAuthority = { as: 'self'; orgId: string | null } | { as: 'staff'; orgId: string };

export function familyActorOf(current: SessionContext): FamilyActor {
  const { session, user } = current;
  return {
    userId: user.id,
    name: `${user.firstName} ${user.lastName}`.trim(),
    auditUserId: session.impersonatorUserId ?? session.returnToUserId ?? user.id,
    view: session.view,
    orgId: session.orgId,
    claims: current.claims,
  };
}

export function selfAuthority(actor: FamilyActor): FamilyAuthority {
  return { as: 'self', orgId: actor.view === 'customer' ? actor.orgId : null };
}

/** spec §6: a person acts for themselves; anyone else takes staff of the person's organisation. */
export async function authorityOver(
  db: Db,
  actor: FamilyActor,
  personId: string,
): Promise<FamilyAuthority> {
  return personId === actor.userId ? selfAuthority(actor) : staffAuthority(db, actor, [personId]);
}

/**
 * spec §6 Organisation admin: staff holding view-customers (org view), for people who are all
 * customers of the session's organisation. Anyone else is told 404 — a customer may not learn
 * that other families' people exist, nor staff that another organisation's do — except staff
 * without the claim, who are refused outright (403) before anyone is looked up.
 */
export async function staffAuthority(
  db: Db,
  actor: FamilyActor,
  personIds: readonly string[],
): Promise<FamilyAuthority> {
  if (actor.view !== 'org' || !actor.orgId) throw new NotFound(familyMessages.notFound);
  if (!actor.claims.includes('view-customers')) throw new Forbidden(familyMessages.notAllowed);
  const customers = await customersAmong(db, actor.orgId, personIds);
  if (personIds.some((id) => !customers.has(id))) throw new NotFound(familyMessages.notFound);
  return { as: 'staff', orgId: actor.orgId };
}
