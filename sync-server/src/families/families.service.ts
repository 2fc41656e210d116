import type { FastifyBaseLogger } from 'fastify';
import { guardianMessages, familyMessages } from '@platform/schema/families/families.messages';
import type { FamilyMember } from '@platform/schema/families/families.zod';
import type { Mailer, OutgoingEmail } from '../adapters/mailer/port.ts';
import { isAncestorOf, linkGuardian } from '../auth/guardians.repository.ts';
import { insertResetToken } from '../auth/password-reset.repository.ts';
import { hashToken, newToken } from '../auth/sessions.repository.ts';
import type { Db, Tx } from '../db/open-database.ts';
import { isUniqueViolation } from '../db/postgres-errors.ts';
import { findOrganization } from '../organizations/organizations.repository.ts';
import { enrolCustomer, restampRosterItemsOf } from '../roster/roster.service.ts';
import type { FamilyActor, FamilyAuthority } from './families.access.ts';
import { SET_PASSWORD_LINK_DAYS } from './families.email.ts';
import { FamilyFormInvalid } from './families.errors.ts';
import {
  customersAmong,
  insertFamilyAudit,
  isManagedAccount,
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

export const fullName = (person: Pick<Person, 'firstName' | 'lastName'>) =>
  `${person.firstName} ${person.lastName}`.trim();

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
  detail?: Record<string, unknown>;
};

/**
 * The one write path of a guardian link, inside the caller's transaction: refuses a person as
 * their own guardian and links that would close a loop, then links. A new link made in an
 * organisation's context puts both people on its customer list; the child's roster item is
 * re-stamped so the guardian's devices replicate it; the change is audited. False (and nothing
 * written) when the two were linked already.
 */
export async function linkInFamily(tx: Tx, link: NewLink): Promise<boolean> {
  const { authority, guardian, child } = link;
  if (guardian.id === child.id)
    throw new FamilyFormInvalid([{ field: link.field, message: guardianMessages.ownGuardian }]);
  if (await isAncestorOf(tx, child.id, guardian.id))
    throw new FamilyFormInvalid([{ field: link.field, message: familyMessages.guardianCycle }]);
  if (authority.as === 'staff') {
    // A guardian can switch into their child: staff never put an account that signs in by
    // itself under anyone, and never reach beyond their own customer list.
    if (!link.created.child && !(await isManagedAccount(tx, child.id)))
      throw new FamilyFormInvalid([
        { field: link.field, message: familyMessages.signsInThemselves },
      ]);
    if (
      !link.created.guardian &&
      (await customersAmong(tx, authority.orgId, [guardian.id])).size === 0
    )
      throw new FamilyFormInvalid([{ field: link.field, message: familyMessages.notYourCustomer }]);
  }
  const linked = await linkGuardian(tx, {
    guardianUserId: guardian.id,
    childUserId: child.id,
    // guardian_links.org_id names the organisation whose staff made the link (decision 0003).
    orgId: authority.as === 'staff' ? authority.orgId : null,
  });
  if (!linked) return false;
  // Accounts made here join the organisation's customer list; an existing account is never
  // put on an organisation's list by someone else's action.
  if (authority.orgId) {
    if (link.created.guardian) await enrolCustomer(tx, authority.orgId, guardian);
    if (link.created.child) await enrolCustomer(tx, authority.orgId, child);
  }
  await restampRosterItemsOf(tx, [child.id], [guardian.id]);
  await auditFamilyChange(tx, link.actor, authority, link.action, child.id, {
    guardianUserId: guardian.id,
    ...link.detail,
  });
  return true;
}

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
  const token = newToken();
  const expiresAt = new Date(Date.now() + SET_PASSWORD_LINK_DAYS * 86_400_000);
  await insertResetToken(tx, userId, hashToken(token), expiresAt);
  return `${publicUrl}/auth/reset-password?token=${encodeURIComponent(token)}`;
}

/**
 * Queues the emails in the transaction that made their links (decision 0015): they exist only
 * if it commits, and a job delivers them — retried, and logged if it fails for good (the
 * person can still use Forgot password).
 */
export async function deliverEmails(deps: FamilyDeps, tx: Tx, emails: readonly OutgoingEmail[]) {
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
