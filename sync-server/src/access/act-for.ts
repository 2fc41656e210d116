import { impersonationMessages } from '@platform/schema/auth/auth.messages';
import type { Db } from '../db/open-database.ts';
import { Forbidden, NotFound } from '../plugins/domain-errors.ts';
import type { SessionContext } from '../plugins/session.ts';
import { readRole, readSubjectFacts, type SubjectFacts } from './act-for.repository.ts';

// Asked as they are stored, by switching (is the keyboard an admin?) and by replication (which
// children does a guardian's family scope reach?).
export { childrenActedFor, readRole } from './act-for.repository.ts';

/**
 * "May X act for Y?" — the one decision point (DESIGN.md "Who may act for whom", decision 0035).
 * Families, the CRM, switching accounts and replication all ask it; it is tested as a matrix of
 * actors × actions in act-for.test.ts.
 *
 * - read-family: see Y's guardians and children;
 * - manage-family: add or remove Y's guardians, create or attach Y's children;
 * - switch: sign in as Y (Switch accounts);
 * - replicate: Y's documents reach X's device and X may write them (bookings for a child).
 */
export const actForActions = ['read-family', 'manage-family', 'switch', 'replicate'] as const;
export type ActForAction = (typeof actForActions)[number];

/** Whoever is asking, read from their session. */
export type Principal = {
  userId: string;
  view: 'org' | 'customer' | 'kiosk';
  orgId: string | null;
  claims: readonly string[];
  role: 'user' | 'admin';
  /**
   * The person at the keyboard when it is not the account's owner: the guardian or admin who
   * switched into it, however many hops ago. Such a session acts for the account but never
   * decides as its owner, and reaches no further than its keyboard person may themself.
   */
  switchedFrom: string | null;
};

/**
 * In whose name a granted action runs. `staff`: staff of `orgId` acting for an account their
 * organisation made and nobody has claimed yet (or reading a customer's family).
 */
export type Grant =
  { as: 'self' } | { as: 'guardian' } | { as: 'staff'; orgId: string } | { as: 'admin' };

/**
 * A refusal: 404 when the asker may not even know Y exists, 403 when they may but lack power.
 * `reason` lets a caller choose its message.
 */
export type RefusalReason =
  'unknown-person' | 'staff-without-claim' | 'owner-decides' | 'guardian-never-staff';
export type Refusal = { refused: 403 | 404; reason: RefusalReason };

export type Decision = Grant | Refusal;

export const isRefusal = (decision: Decision): decision is Refusal => 'refused' in decision;

const refuse = (refused: 403 | 404, reason: RefusalReason): Refusal => ({ refused, reason });

/** Staff powers come from claim view-customers in the organisation the session is in. */
function staffOrgOf(actor: Principal): string | null {
  return actor.view === 'org' && actor.orgId && actor.claims.includes('view-customers')
    ? actor.orgId
    : null;
}

/** The rules themselves, over what the database said about Y. Pure: the matrix tests it whole. */
export function decide(
  actor: Principal,
  subjectId: string,
  subject: SubjectFacts | null,
  action: ActForAction,
): Decision {
  if (!subject) return refuse(404, 'unknown-person');
  if (subjectId === actor.userId) return { as: 'self' };
  // The owner of the account confirmed this guardian (or, for a child without an email, the
  // family that acts for it did): the guardian acts in the child's customer life.
  if (subject.actorIsConfirmedGuardian && actor.view !== 'kiosk') {
    if (action === 'switch' && (subject.role === 'admin' || subject.isStaff))
      return refuse(403, 'guardian-never-staff');
    return { as: 'guardian' };
  }
  if (action === 'switch' && actor.role === 'admin') return { as: 'admin' };
  if (actor.view === 'org' && actor.orgId && !actor.claims.includes('view-customers'))
    return refuse(403, 'staff-without-claim');
  const staffOrg = staffOrgOf(actor);
  if (!staffOrg || !subject.customerOfActorOrg) return refuse(404, 'unknown-person');
  if (action === 'read-family') return { as: 'staff', orgId: staffOrg };
  if (action === 'manage-family' && subject.createdByOrgId === staffOrg && !subject.claimed)
    return { as: 'staff', orgId: staffOrg };
  return refuse(403, 'owner-decides');
}

/**
 * What reaches beyond the account a switched session acts for: going on into someone else, and
 * power over a third person's family (making a guardian or a child of them). Reading the
 * account's family and acting on its own stay the account's.
 */
const reachesBeyond = (action: ActForAction) => action === 'switch' || action === 'manage-family';

export async function decideActFor(
  db: Db,
  actor: Principal,
  subjectId: string,
  action: ActForAction,
): Promise<Decision> {
  const id = subjectId.trim().toLowerCase();
  if (!isUuid(id)) return refuse(404, 'unknown-person');
  const decision = decide(actor, id, await readSubjectFacts(db, actor, id), action);
  const keyboardId = actor.switchedFrom;
  if (keyboardId === null || id === actor.userId || !reachesBeyond(action)) return decision;
  if (isRefusal(decision) && action !== 'switch') return decision;
  // A switched session is a way to act for its account, never a way to gain power: what
  // reaches beyond the account is decided for the person at the keyboard (issue 11, A1). An
  // onward switch is theirs alone — a guardian switched into C goes on only into someone they
  // may switch into themself; a third person's family, theirs as well as the account's.
  const keyboard = await keyboardPrincipal(db, keyboardId);
  if (!keyboard) return refuse(404, 'unknown-person');
  const theirs = decide(keyboard, id, await readSubjectFacts(db, keyboard, id), action);
  if (action === 'switch') return theirs;
  // An admin may become the third person directly: the account's own power stands.
  if (keyboard.role === 'admin') return decision;
  return isRefusal(theirs) ? theirs : decision;
}

/** The person at the keyboard deciding in their own name: no organisation view, no claims. */
async function keyboardPrincipal(db: Db, userId: string): Promise<Principal | null> {
  const role = await readRole(db, userId);
  if (!role) return null;
  return { userId, view: 'customer', orgId: null, claims: [], role, switchedFrom: null };
}

/** The grant, or the refusal thrown as the domain error that says it (404 or 403). */
export async function assertMayActFor(
  db: Db,
  actor: Principal,
  subjectId: string,
  action: ActForAction,
  messageOf: (reason: RefusalReason) => string,
): Promise<Grant> {
  const decision = await decideActFor(db, actor, subjectId, action);
  if (!isRefusal(decision)) return decision;
  const message = messageOf(decision.reason);
  throw decision.refused === 404 ? new NotFound(message) : new Forbidden(message);
}

export function principalOf(current: SessionContext): Principal {
  return {
    userId: current.user.id,
    view: current.session.view,
    orgId: current.session.orgId,
    claims: current.claims,
    role: current.user.role,
    switchedFrom: keyboardOf(current),
  };
}

/**
 * The person at the keyboard of a switched session (null in an own session): the guardian or
 * admin who switched first. `sessions.return_to_user_id` keeps them through every hop, and a
 * return lands only on their own session.
 */
export const keyboardOf = (current: Pick<SessionContext, 'session'>): string | null =>
  current.session.returnToUserId ?? current.session.impersonatorUserId;

const isUuid = (id: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id);

/**
 * An owner decision — the account's password or kiosk PIN, its organisations, who its
 * guardians are, its invitations — is taken only in the owner's own session: a guardian or an
 * admin switched into the account acts for it but never decides as its owner (decision 0035).
 */
export function assertOwnSession(current: Pick<SessionContext, 'session'>): void {
  if (keyboardOf(current) !== null) throw new Forbidden(impersonationMessages.ownerOnly);
}
