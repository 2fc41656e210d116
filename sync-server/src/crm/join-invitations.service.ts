import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import { crmMessages } from '@platform/schema/crm/crm.messages';
import type { PendingInvitation } from '@platform/schema/crm/crm.zod';
import { crmInvitations, organizations, rosterItems, users } from '@platform/schema/db';
import type { Db, Tx } from '../db/open-database.ts';
import { Forbidden, NotFound } from '../plugins/domain-errors.ts';
import { enrolCustomer, type EnrolledPerson } from './roster.service.ts';
import { notifyChange } from '../sync/change-feed.ts';

type InvitationRow = typeof crmInvitations.$inferSelect;

/**
 * The person says yes to an organisation (decision 0035): they become its customer, the roster
 * item staff made shows their own name instead of what staff typed, and it is pending no more.
 * Inside the caller's transaction.
 */
export async function acceptInvitationOf(
  tx: Tx,
  invitation: InvitationRow,
  person: EnrolledPerson,
) {
  await enrolCustomer(tx, invitation.orgId, person);
  await tx
    .update(rosterItems)
    .set({
      firstName: person.firstName,
      lastName: person.lastName,
      email: person.email,
      invitationPending: false,
      updatedAt: new Date(),
    })
    .where(and(eq(rosterItems.orgId, invitation.orgId), eq(rosterItems.userId, person.id)));
  await tx
    .update(crmInvitations)
    .set({ acceptedAt: new Date() })
    .where(
      and(
        eq(crmInvitations.orgId, invitation.orgId),
        eq(crmInvitations.userId, person.id),
        isNull(crmInvitations.acceptedAt),
      ),
    );
}

/** Invitations waiting for this person: live, neither accepted nor declined, newest first. */
export async function listPendingInvitations(db: Db, userId: string): Promise<PendingInvitation[]> {
  const rows = await db
    .select({
      id: crmInvitations.id,
      orgId: crmInvitations.orgId,
      orgLabel: organizations.label,
      createdAt: crmInvitations.createdAt,
    })
    .from(crmInvitations)
    .innerJoin(organizations, eq(organizations.id, crmInvitations.orgId))
    .where(pendingFor(userId))
    .orderBy(desc(crmInvitations.createdAt));
  // One per organisation: staff may have added the person twice (a resent invitation).
  const seen = new Set<string>();
  return rows
    .filter((row) => !seen.has(row.orgId) && seen.add(row.orgId))
    .map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

const pendingFor = (userId: string) =>
  and(
    eq(crmInvitations.userId, userId),
    isNull(crmInvitations.acceptedAt),
    isNull(crmInvitations.declinedAt),
    gt(crmInvitations.expiresAt, new Date()),
  );

/** Who answers an invitation: the account's owner in their own session, never someone switched in. */
export type InvitationAnswerer = { userId: string; switchedFrom: string | null };

async function lockPending(tx: Tx, answerer: InvitationAnswerer, invitationId: string) {
  if (answerer.switchedFrom !== null) throw new Forbidden(crmMessages.onlyOwnerAnswers);
  const [invitation] = await tx
    .select()
    .from(crmInvitations)
    .where(and(eq(crmInvitations.id, invitationId), pendingFor(answerer.userId)))
    .for('update');
  if (!invitation) throw new NotFound(crmMessages.invitationGone);
  return invitation;
}

export async function acceptInvitation(db: Db, answerer: InvitationAnswerer, invitationId: string) {
  await db.transaction(async (tx) => {
    const invitation = await lockPending(tx, answerer, invitationId);
    const [person] = await tx
      .select({
        id: users.id,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
      })
      .from(users)
      .where(eq(users.id, answerer.userId));
    if (!person) throw new NotFound(crmMessages.invitationGone);
    await acceptInvitationOf(tx, invitation, person);
  });
  return { success: true as const };
}

/**
 * The person says no: every pending invitation of that organisation ends, and the roster item
 * staff made for the invitation goes (unless they were a customer there already).
 */
export async function declineInvitation(
  db: Db,
  answerer: InvitationAnswerer,
  invitationId: string,
) {
  await db.transaction(async (tx) => {
    const invitation = await lockPending(tx, answerer, invitationId);
    await tx
      .update(crmInvitations)
      .set({ declinedAt: new Date() })
      .where(and(eq(crmInvitations.orgId, invitation.orgId), pendingFor(answerer.userId)));
    const removed = await tx
      .update(rosterItems)
      .set({ deleted: true, updatedAt: new Date() })
      .where(
        and(
          eq(rosterItems.orgId, invitation.orgId),
          eq(rosterItems.userId, answerer.userId),
          eq(rosterItems.invitationPending, true),
        ),
      )
      .returning({ id: rosterItems.id });
    if (removed.length > 0)
      await notifyChange(tx, {
        collection: 'roster',
        orgId: invitation.orgId,
        ownerIds: [answerer.userId],
      });
  });
  return { success: true as const };
}
