import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import {
  auditLog,
  crmInvitations,
  guardianLinks,
  memberships,
  rosterItems,
  users,
} from '@platform/schema/db';
import { rowsOf, type Tx } from '../db/open-database.ts';

/**
 * How the owner of an address proved it is theirs. Each of these is a claim of an account
 * someone else may have made for that address (decision 0035).
 */
export type ClaimedThrough = 'invitation' | 'password-link' | 'google';

/**
 * The owner of the address takes the account over, inside the caller's transaction (the one
 * that sets the password or the Google identity). The first time:
 * - staff of the organisation that made the account stop acting for it (claimed_at is set),
 *   and for the children without an email it is a guardian of (passChildrenToFamily);
 * - every guardian link that someone other than the owner confirmed waits for the owner again,
 *   so a link made with a stranger's address never gives its maker the stranger's account;
 * - the organisation(s) that made the account see the invitation taken (not pending).
 * Later claims (a second password reset) change nothing. Answers whether this was the first.
 */
export async function claimAccount(
  tx: Tx,
  userId: string,
  through: ClaimedThrough,
): Promise<boolean> {
  const claimed = await tx
    .update(users)
    .set({ claimedAt: new Date() })
    .where(and(eq(users.id, userId), isNull(users.claimedAt), sql`${users.email} is not null`))
    .returning({ id: users.id });
  if (claimed.length === 0) return false;
  const unconfirmed = await tx
    .update(guardianLinks)
    .set({ confirmedAt: null, confirmedByUserId: null })
    .where(
      and(
        eq(guardianLinks.childUserId, userId),
        or(
          isNull(guardianLinks.confirmedByUserId),
          sql`${guardianLinks.confirmedByUserId} <> ${userId}`,
        ),
      ),
    )
    .returning({ guardianUserId: guardianLinks.guardianUserId });
  await acceptMembershipsOf(tx, userId);
  const childrenOfTheFamily = await passChildrenToFamily(tx, userId);
  await tx.insert(auditLog).values({
    actorUserId: userId,
    subjectUserId: userId,
    action: 'account.claimed',
    detail: {
      through,
      linksAwaitingConfirmation: unconfirmed.map((link) => link.guardianUserId),
      childrenOfTheFamily,
    },
  });
  return true;
}

/**
 * A child without an email is its family's (decision 0035). When its guardian claims their
 * account, the children without an email they hold a confirmed link to — and those below
 * them — are claimed with them: the organisation that made them stops acting for them, so its
 * staff can no longer give them a guardian they control, nor take the parent away (issue 11,
 * A15). Answers the children it passed to the family.
 */
async function passChildrenToFamily(tx: Tx, guardianUserId: string): Promise<string[]> {
  const result = await tx.execute(sql`
    with recursive family(id) as (
      select link.child_user_id from ${guardianLinks} link
        join ${users} guardian on guardian.id = link.guardian_user_id
        where link.guardian_user_id = ${guardianUserId}::uuid
          and link.confirmed_at is not null and guardian.claimed_at is not null
      union
      select link.child_user_id from ${guardianLinks} link
        join family on link.guardian_user_id = family.id
        join ${users} child on child.id = family.id
        where link.confirmed_at is not null and child.email is null
    )
    update ${users} set claimed_at = now()
      where id in (select id from family) and email is null and claimed_at is null
      returning id`);
  return rowsOf<{ id: string }>(result).map((row) => row.id);
}

/**
 * The organisations the person is already a customer of (those whose staff made the account)
 * no longer show them as invited; their invitations are used up. Invitations of organisations
 * the person is not a customer of stay pending until they accept them.
 */
async function acceptMembershipsOf(tx: Tx, userId: string) {
  const customerOf = (
    await tx
      .select({ orgId: memberships.orgId })
      .from(memberships)
      .where(and(eq(memberships.userId, userId), eq(memberships.kind, 'customer')))
  ).map((row) => row.orgId);
  if (customerOf.length === 0) return;
  await tx
    .update(crmInvitations)
    .set({ acceptedAt: new Date() })
    .where(
      and(
        eq(crmInvitations.userId, userId),
        inArray(crmInvitations.orgId, customerOf),
        isNull(crmInvitations.acceptedAt),
        isNull(crmInvitations.declinedAt),
      ),
    );
  // invitation_pending is server-only (not in the replicated document): devices need no news.
  await tx
    .update(rosterItems)
    .set({ invitationPending: false })
    .where(
      and(
        eq(rosterItems.userId, userId),
        inArray(rosterItems.orgId, customerOf),
        eq(rosterItems.invitationPending, true),
      ),
    );
}
