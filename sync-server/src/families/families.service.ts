import { fullName } from '@platform/schema/app/full-name.rules';
import type { FastifyBaseLogger } from 'fastify';
import { guardianMessages, familyMessages } from '@platform/schema/families/families.messages';
import type { FamilyMember } from '@platform/schema/families/families.zod';
import type { Mailer, OutgoingEmail } from '../adapters/mailer/port.ts';
import {
  findUserByEmail,
  insertUser,
  isAncestorOf,
  linkGuardian,
} from '../auth/accounts.service.ts';
import { issueResetLink } from '../auth/password-reset.service.ts';
import type { Db, Tx } from '../db/open-database.ts';
import { isUniqueViolation } from '../db/postgres-errors.ts';
import { findOrganization } from '../organizations/organizations.service.ts';
import { enrolCustomer, restampRosterItemsOf } from '../crm/roster.service.ts';
import { isOwnerActing, type FamilyActor, type FamilyAuthority } from './families.access.ts';
import {
  childAccountEmail,
  childLinkRequestEmail,
  SET_PASSWORD_LINK_DAYS,
} from './families.email.ts';
import { FamilyFormInvalid } from './families.errors.ts';
import {
  customersAmong,
  insertFamilyAudit,
  listChildrenOf,
  listGuardiansOf,
  type FamilyAuditEntry,
} from './families.repository.ts';

/** What the family actions need from the app. */
export type FamilyDeps = {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  log: Pick<FastifyBaseLogger, 'error'>;
};

export type Person = FamilyMember;

export const toMember = (person: Person): FamilyMember => ({
  id: person.id,
  firstName: person.firstName,
  lastName: person.lastName,
  email: person.email,
});

type NewLink = {
  authority: FamilyAuthority;
  actor: FamilyActor;
  guardian: Person;
  child: Person;
  action: FamilyAuditEntry['action'];
  /** The request field a refusal is reported on. */
  field: string;
  /** Which of the two accounts this action created (they join the organisation's list). */
  created: { guardian: boolean; child: boolean };
  /**
   * The names the actor typed for a person who had an account already: a child (shown to the
   * guardian until the child confirms) or a guardian (shown on the child's side, never the
   * guardian account's own names).
   */
  requestedName?: { of: 'guardian' | 'child'; firstName: string; lastName: string };
  detail?: Record<string, unknown>;
};

/**
 * Whether a new link gives the guardian power at once (decision 0035): when the child's owner
 * makes it in their own session, or when the child has no email — such an account is its
 * family's, and whoever may act for it decides. Otherwise the owner of the address confirms.
 */
const confirmsAtOnce = (link: NewLink) =>
  isOwnerActing(link.actor, link.child.id) || link.child.email === null;

/**
 * The one write path of a guardian link, inside the caller's transaction: refuses a person as
 * their own guardian and links that would close a loop, then links — confirmed or awaiting the
 * child's owner. A new link made in an organisation's context puts the people this action
 * created on its customer list; the child's roster item is re-stamped so the guardian's devices
 * replicate it once the link counts; the change is audited. False (and nothing written) when
 * the two were linked already.
 */
export async function linkInFamily(tx: Tx, link: NewLink): Promise<boolean> {
  const { authority, guardian, child } = link;
  if (guardian.id === child.id)
    throw new FamilyFormInvalid([{ field: link.field, message: guardianMessages.ownGuardian }]);
  if (await isAncestorOf(tx, child.id, guardian.id))
    throw new FamilyFormInvalid([{ field: link.field, message: familyMessages.guardianCycle }]);
  // Staff never reach beyond their own customer list with an existing account.
  if (
    authority.as === 'staff' &&
    !link.created.guardian &&
    (await customersAmong(tx, authority.orgId, [guardian.id])).size === 0
  )
    throw new FamilyFormInvalid([{ field: link.field, message: familyMessages.notYourCustomer }]);
  const confirmed = confirmsAtOnce(link);
  const linked = await linkGuardian(tx, {
    guardianUserId: guardian.id,
    childUserId: child.id,
    // guardian_links.org_id names the organisation whose staff made the link (decision 0003).
    orgId: authority.as === 'staff' ? authority.orgId : null,
    createdByUserId: link.actor.auditUserId,
    confirmedAt: confirmed ? new Date() : null,
    confirmedByUserId: confirmed ? link.actor.auditUserId : null,
    requestedFirstName: link.requestedName?.firstName ?? null,
    requestedLastName: link.requestedName?.lastName ?? null,
    requestedNameOf: link.requestedName?.of ?? null,
  });
  if (!linked) return false;
  // Accounts made here join the organisation's customer list; an existing account is never
  // put on an organisation's list by someone else's action.
  if (authority.orgId) {
    if (link.created.guardian) await enrolCustomer(tx, authority.orgId, guardian);
    if (link.created.child) await enrolCustomer(tx, authority.orgId, child);
  }
  if (confirmed) await restampRosterItemsOf(tx, [child.id], [guardian.id]);
  await auditFamilyChange(tx, link.actor, authority, link.action, child.id, {
    guardianUserId: guardian.id,
    confirmed,
    ...link.detail,
  });
  return true;
}

export type NewChild = {
  firstName: string;
  lastName: string;
  email: string | null;
  /** Issue 14: kept on a new account only — an existing one's owner keeps their own. */
  dateOfBirth: string | null;
};

/**
 * Children for a guardian, inside the caller's transaction (create-children and customer
 * signup). A new address or none makes a new account, made by the actor (or their
 * organisation's staff); an address that already has an account becomes a request its owner
 * confirms, named as typed — the answer looks the same either way, so nothing tells the actor
 * whose address it is. Answers the members as entered; their emails are queued with them.
 */
export async function addChildrenInFamily(
  tx: Tx,
  context: {
    deps: Pick<FamilyDeps, 'publicUrl' | 'mailer'>;
    authority: FamilyAuthority;
    actor: FamilyActor;
    guardian: Person;
    orgLabel: string | null;
    sendSetPasswordMail: boolean;
  },
  children: readonly NewChild[],
): Promise<FamilyMember[]> {
  const { authority, actor, guardian, orgLabel, deps } = context;
  const members: FamilyMember[] = [];
  const mails: OutgoingEmail[] = [];
  for (const [index, entry] of children.entries()) {
    const existing = entry.email ? await findUserByEmail(tx, entry.email) : undefined;
    const child = existing
      ? toMember(existing)
      : { id: await insertUser(tx, { ...entry, ...madeBy(authority, actor) }), ...entry };
    const { dateOfBirth, ...typed } = entry;
    await linkInFamily(tx, {
      authority,
      actor,
      guardian,
      child,
      action: 'family.create-child',
      field: `signupDtos.${index}`,
      created: { guardian: false, child: !existing },
      ...(existing ? { requestedName: { of: 'child' as const, ...typed } } : {}),
    });
    members.push({
      id: child.id,
      ...typed,
      // The age shows for an account made here; an existing one's owner keeps theirs to themself.
      ...(dateOfBirth && !existing ? { dateOfBirth } : {}),
      awaitingConfirmation: entry.email !== null,
    });
    if (existing?.email)
      mails.push(
        childLinkRequestEmail({
          to: existing.email,
          orgId: authority.orgId,
          orgLabel,
          guardianName: fullName(guardian),
          settingsLink: settingsLinkOf(deps.publicUrl, authority.orgId),
        }),
      );
    else if (entry.email && context.sendSetPasswordMail)
      mails.push(
        childAccountEmail({
          to: entry.email,
          orgId: authority.orgId,
          orgLabel,
          recipientFirstName: entry.firstName,
          actorName: actor.name,
          guardianName: fullName(guardian),
          actorIsGuardian: actor.userId === guardian.id,
          link: await issueSetPasswordLink(tx, deps.publicUrl, child.id),
        }),
      );
  }
  // Queued in this transaction: an email exists only if the accounts and links it names do.
  await deliverEmails(deps, tx, mails);
  return members;
}

/** Who made an account made for someone else: staff's organisation, or the person at the keyboard. */
export const madeBy = (authority: FamilyAuthority, actor: FamilyActor) =>
  authority.as === 'staff'
    ? { createdByOrgId: authority.orgId }
    : { createdByUserId: actor.auditUserId };

/** Where a person manages their family: the branded app's settings in an organisation's context. */
export const settingsLinkOf = (publicUrl: string, orgId: string | null) =>
  orgId ? `${publicUrl}/dashboard-customer/${orgId}/settings` : `${publicUrl}/dashboard/settings`;

export async function auditFamilyChange(
  tx: Tx,
  actor: FamilyActor,
  authority: FamilyAuthority,
  action: FamilyAuditEntry['action'],
  childUserId: string,
  detail: Record<string, unknown>,
) {
  await insertFamilyAudit(tx, {
    orgId: authority.orgId,
    actorUserId: actor.auditUserId,
    subjectUserId: childUserId,
    action,
    detail: { as: authority.as, sessionUserId: actor.userId, childUserId, ...detail },
  });
}

/**
 * A set-password link for an account created without a password: a password-reset token
 * (the same table and page as Forgot password), valid longer because nobody asked for it.
 */
export async function issueSetPasswordLink(tx: Tx, publicUrl: string, userId: string) {
  return issueResetLink(tx, publicUrl, userId, SET_PASSWORD_LINK_DAYS * 86_400_000);
}

/**
 * Queues the emails in the transaction that made their links (decision 0015): they exist only
 * if it commits, and a job delivers them — retried, and logged if it fails for good (the
 * person can still use Forgot password).
 */
export async function deliverEmails(
  deps: Pick<FamilyDeps, 'mailer'>,
  tx: Tx,
  emails: readonly OutgoingEmail[],
) {
  for (const email of emails) await deps.mailer.send(email, { tx });
}

export async function orgLabelOf(db: Db, orgId: string | null): Promise<string | null> {
  return orgId ? ((await findOrganization(db, orgId))?.label ?? null) : null;
}

/** Two requests creating one new address at once: the loser runs again and finds it. */
export async function retryOnceOnUniqueViolation<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return run();
  }
}

/**
 * Whether someone is a child of a confirmed guardian: their purchases are the family's to make,
 * so they buy only in a session a guardian switched into (spec §6; issue 15).
 */
export async function hasConfirmedGuardians(db: Db, userId: string): Promise<boolean> {
  const guardians = await listGuardiansOf(db, userId, null);
  return guardians.some((guardian) => !guardian.awaitingConfirmation);
}

/**
 * A person's own family as they may see it (their data download, issue 17): guardians and
 * children with the names the person may know (decision 0035: typed names where the real ones
 * are not theirs to learn), on every organisation.
 */
export async function ownFamilyOf(db: Db, userId: string) {
  const [guardians, children] = await Promise.all([
    listGuardiansOf(db, userId, null),
    listChildrenOf(db, userId, null),
  ]);
  return [
    ...guardians.map((person) => ({ relation: 'guardian' as const, ...person })),
    ...children.map((person) => ({ relation: 'child' as const, ...person })),
  ];
}
