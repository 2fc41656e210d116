import { fullName } from '@platform/schema/app/full-name.rules';
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AddCustomerInput, AddCustomerResponse } from '@platform/schema/crm/crm.zod';
import { rosterItems } from '@platform/schema/db';
import type { Mailer } from '../adapters/mailer/port.ts';
import { findUserByEmail, findUserById, insertUser } from '../auth/accounts.service.ts';
import type { Db, Tx } from '../db/open-database.ts';
import { findOrganization } from '../organizations/organizations.service.ts';
import { enrolCustomer } from './roster.service.ts';
import { rosterItemOrNotFound } from './customers.service.ts';
import { notifyChange } from '../sync/change-feed.ts';
import type { CrmStaff } from './crm.access.ts';
import { AlreadyCustomer, InvitationNotPending, RosterItemNotFound } from './crm.errors.ts';
import { customerInvitationEmail } from './invitation.email.ts';
import { endOpenInvitations, insertInvitation } from './invitations.repository.ts';

export type AddCustomerDeps = {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  log: Pick<FastifyBaseLogger, 'error'>;
};

type Typed = { firstName: string; lastName: string; email: string };

/**
 * spec §2 Add customer, §3 Invite request (decisions 0012, 0035). Nobody is enrolled by
 * someone else: a new address becomes a password-less account this organisation made (its
 * staff act for it until its owner claims it) and its customer; an address that has an account
 * becomes an invitation its owner accepts. Either way the roster shows an invited person named
 * as staff typed, and the answer is the same — it never says whether the address had an
 * account. An address on the list already is refused (409, Already a customer). With
 * sendInviteEmails, the email leaves after commit: a signup link carrying the invitation token
 * while the account has no owner yet, a log-in link otherwise.
 */
export async function addCustomer(
  deps: AddCustomerDeps,
  staff: CrmStaff,
  input: AddCustomerInput,
): Promise<AddCustomerResponse> {
  const typed = {
    firstName: input.customerFirstName,
    lastName: input.customerLastName,
    email: input.customerEmail.toLowerCase(),
  };
  const org = await findOrganization(deps.db, staff.orgId);
  if (!org) throw new Error('the session organisation does not exist');
  const outcome = await deps.db.transaction(async (tx) => {
    const existing = await findUserByEmail(tx, typed.email);
    if (existing) await refuseIfOnList(tx, staff.orgId, existing.id);
    const userId = existing?.id ?? (await newInvitedAccount(tx, staff.orgId, typed));
    if (existing) await putInvitedOnList(tx, staff.orgId, userId, typed);
    const [item] = await tx
      .update(rosterItems)
      .set({
        invitationPending: true,
        ...(input.customerPhone ? { phone: input.customerPhone } : {}),
        // spec §6: paying outside the platform makes the person a record (notes, metrics).
        ...(input.externalPayments ? { externalPayments: true } : {}),
        updatedAt: new Date(),
      })
      .where(and(eq(rosterItems.orgId, staff.orgId), eq(rosterItems.userId, userId)))
      .returning();
    if (!item) throw new Error('roster item missing after enrolment');
    // Every invited person has an invitation to answer in the app, emailed or not.
    const token = await insertInvitation(tx, {
      orgId: staff.orgId,
      userId,
      invitedBy: staff.userId,
    });
    const ownerless = !existing || existing.claimedAt === null;
    return { item, signupToken: ownerless ? token : null };
  });
  const inviteSent =
    input.sendInviteEmails && (await sendInvitation(deps, org, typed, outcome.signupToken));
  const { item } = outcome;
  return {
    id: item.id,
    athlete: {
      id: item.userId,
      fullName: fullName(item),
      firstName: item.firstName,
      lastName: item.lastName,
      email: item.email,
    },
    invitedPerson: typed,
    inviteSent,
  };
}

/** Issue 14: an address on the list (invited or not) is said once, with where to find it. */
async function refuseIfOnList(tx: Tx, orgId: string, userId: string) {
  const [onList] = await tx
    .select({ id: rosterItems.id, invitationPending: rosterItems.invitationPending })
    .from(rosterItems)
    .where(
      and(
        eq(rosterItems.orgId, orgId),
        eq(rosterItems.userId, userId),
        eq(rosterItems.deleted, false),
      ),
    );
  if (onList)
    throw new AlreadyCustomer({ rosterId: onList.id, invitationPending: onList.invitationPending });
}

/** A new address: an account this organisation made, its customer from the start. */
async function newInvitedAccount(tx: Tx, orgId: string, typed: Typed): Promise<string> {
  const userId = await insertUser(tx, { ...typed, passwordHash: null, createdByOrgId: orgId });
  await enrolCustomer(tx, orgId, { id: userId, ...typed });
  return userId;
}

/**
 * An address that has an account: a roster item named as staff typed (never the account's own
 * names), with no membership — the person is not this organisation's customer until they accept.
 */
async function putInvitedOnList(tx: Tx, orgId: string, userId: string, typed: Typed) {
  const now = new Date();
  await tx
    .insert(rosterItems)
    .values({ orgId, userId, ...typed, invitationPending: true, updatedAt: now })
    .onConflictDoUpdate({
      target: [rosterItems.orgId, rosterItems.userId],
      set: { ...typed, deleted: false, invitationPending: true, updatedAt: now },
    });
  await notifyChange(tx, { collection: 'roster', orgId, ownerIds: [userId] });
}

async function sendInvitation(
  deps: AddCustomerDeps,
  org: { id: string; label: string },
  typed: Typed,
  signupToken: string | null,
): Promise<boolean> {
  const query = `orgId=${encodeURIComponent(org.id)}&email=${encodeURIComponent(typed.email)}`;
  try {
    await deps.mailer.send(
      customerInvitationEmail({
        to: typed.email,
        orgId: org.id,
        orgLabel: org.label,
        firstName: typed.firstName,
        signupLink: signupToken
          ? `${deps.publicUrl}/auth/signup?${query}&invitation=${encodeURIComponent(signupToken)}`
          : null,
        // The invitation waits in the person's settings (Requests), whichever app they use.
        loginLink: `${deps.publicUrl}/auth/login?redirectTo=${encodeURIComponent('/dashboard/settings#requests')}`,
      }),
    );
    return true;
  } catch (error) {
    // The customer is on the list; staff can send the invitation again (resendInvitation).
    deps.log.error({ err: error, to: typed.email }, 'customer invitation not sent');
    return false;
  }
}

/**
 * Issue 14: "Resend invitation" beside "Open profile" when an address is on the list already,
 * and on the profile of someone who has not answered yet. A new link replaces the old ones (they
 * stop working), as the team's resend does; the email says the same as the first one.
 */
export async function resendInvitation(
  deps: AddCustomerDeps,
  staff: CrmStaff,
  rosterId: string,
): Promise<{ inviteSent: boolean }> {
  const org = await findOrganization(deps.db, staff.orgId);
  if (!org) throw new Error('the session organisation does not exist');
  // 404 for another organisation's id, or one that is no id at all, before anything is locked.
  const found = await rosterItemOrNotFound(deps.db, staff, rosterId);
  const outcome = await deps.db.transaction(async (tx) => {
    const [item] = await tx
      .select()
      .from(rosterItems)
      .where(
        and(
          eq(rosterItems.orgId, staff.orgId),
          eq(rosterItems.id, found.id),
          eq(rosterItems.deleted, false),
        ),
      )
      .for('update');
    if (!item) throw new RosterItemNotFound();
    // The link goes to the account's own address, never to whatever the roster item says: a
    // signup link claims the account, so it may only reach the address the account was made for.
    const account = await findUserById(tx, item.userId);
    if (!item.invitationPending || !account?.email) throw new InvitationNotPending();
    await endOpenInvitations(tx, { orgId: staff.orgId, userId: item.userId });
    const token = await insertInvitation(tx, {
      orgId: staff.orgId,
      userId: item.userId,
      invitedBy: staff.userId,
    });
    const typed = { firstName: item.firstName, lastName: item.lastName, email: account.email };
    return { typed, signupToken: account.claimedAt ? null : token };
  });
  return { inviteSent: await sendInvitation(deps, org, outcome.typed, outcome.signupToken) };
}
