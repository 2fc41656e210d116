import { and, eq, gt, isNull } from 'drizzle-orm';
import { crmMessages } from '@platform/schema/crm/crm.messages';
import type { SignupDto } from '@platform/schema/auth/auth.zod';
import { afterSignupPath } from '@platform/schema/auth/redirect.rules';
import { crmInvitations, users } from '@platform/schema/db';
import { createHash } from 'node:crypto';
import type { Tx } from '../db/open-database.ts';
import { useUpResetLinks } from '../auth/password-reset.service.ts';
import { renameRosterItemsOf } from './roster.service.ts';
import { claimAccount } from '../access/claim-account.ts';
import { acceptInvitationOf } from './join-invitations.service.ts';

const refused = [{ field: 'invitation', message: crmMessages.invitationInvalid }];

export type InvitationClaim =
  | { ok: true; userId: string; orgId: string; redirectTo: string }
  | { ok: false; errors: typeof refused };

/**
 * Signup through an invitation link (decision 0012): the password-less account staff created
 * takes the password and names of the signup form. The token proves the person read the
 * invitation sent to that address; the account must still have no sign-in of its own, and
 * the address must be the one invited. Any mismatch gets one answer (nothing to probe).
 * Runs inside signup's transaction; the rows are locked so two claims cannot both win.
 */
export async function claimInvitedAccount(
  tx: Tx,
  dto: SignupDto & { invitation: string },
  passwordHash: string,
): Promise<InvitationClaim> {
  const tokenHash = createHash('sha256').update(dto.invitation).digest('hex');
  const [invitation] = await tx
    .select()
    .from(crmInvitations)
    .where(
      and(
        eq(crmInvitations.tokenHash, tokenHash),
        isNull(crmInvitations.acceptedAt),
        gt(crmInvitations.expiresAt, new Date()),
      ),
    )
    .for('update');
  if (!invitation || (dto.orgId && dto.orgId !== invitation.orgId))
    return { ok: false, errors: refused };
  const [user] = await tx.select().from(users).where(eq(users.id, invitation.userId)).for('update');
  const claimable =
    user &&
    user.email === dto.email.trim().toLowerCase() &&
    user.claimedAt === null &&
    !user.passwordHash &&
    !user.googleSubject;
  if (!claimable) return { ok: false, errors: refused };
  const names = { firstName: dto.firstName, lastName: dto.lastName };
  await tx
    .update(users)
    .set({
      passwordHash,
      ...names,
      middleName: dto.middleName || null,
      emailVerifiedAt: new Date(),
    })
    .where(eq(users.id, user.id));
  // Following this organisation's link is accepting its invitation, as well as claiming.
  await acceptInvitationOf(tx, invitation, { id: user.id, ...names, email: user.email });
  await claimAccount(tx, user.id, 'invitation');
  // The account has its password now: a set-password link still in a mailbox must not reset it.
  await useUpResetLinks(tx, user.id);
  await renameRosterItemsOf(tx, user.id, names);
  return {
    ok: true,
    userId: user.id,
    orgId: invitation.orgId,
    redirectTo: afterSignupPath('customer', dto.redirectTo, invitation.orgId),
  };
}
