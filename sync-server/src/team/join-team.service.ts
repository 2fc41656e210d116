import { eq, sql } from 'drizzle-orm';
import { users } from '@platform/schema/db';
import { teamMessages } from '@platform/schema/team/team.messages';
import { normaliseClaims, roleOf } from '@platform/schema/team/team.rules';
import type { JoinedTeam, TeamInvitationPreview } from '@platform/schema/team/team.zod';
import { revokeSession } from '../auth/sessions.service.ts';
import { mergeUserAttributes } from '../auth/accounts.service.ts';
import type { Db, Tx } from '../db/open-database.ts';
import { findOrganization } from '../organizations/organizations.service.ts';
import { Forbidden } from '../plugins/domain-errors.ts';
import type { SessionContext } from '../plugins/session.ts';
import { NotTheInvitedAccount, TeamInvitationInvalid } from './team.errors.ts';
import {
  endTeamInvitation,
  findOpenInvitationByToken,
  inviterNameOf,
} from './team-invitations.repository.ts';
import { insertStaffMembership, insertTeamAudit } from './team.repository.ts';

/**
 * The invited person's side (issue 14, decision 0052). The emailed token is the only way in:
 * an account with the same address gets nothing without it, because signing up does not prove
 * an address. And the token is not enough alone either: the account answering must be the
 * invited address, in its owner's own session (not a guardian or admin switched into it).
 */

const liveOrNone = <T extends { expiresAt: Date }>(row: T | undefined) =>
  row && row.expiresAt > new Date() ? row : undefined;

/** What the link's page shows, to anyone holding the token. */
export async function previewTeamInvitation(db: Db, token: string): Promise<TeamInvitationPreview> {
  const invitation = liveOrNone(await findOpenInvitationByToken(db, token));
  if (!invitation) throw new TeamInvitationInvalid();
  const org = await findOrganization(db, invitation.orgId);
  if (!org) throw new TeamInvitationInvalid();
  return {
    orgId: org.id,
    orgLabel: org.label,
    email: invitation.email,
    claims: normaliseClaims(invitation.claims),
    role: roleOf(invitation.claims),
    invitedBy: await inviterNameOf(db, invitation),
  };
}

async function lockAnswerable(tx: Tx, current: SessionContext, token: string) {
  const { session, user } = current;
  if (session.impersonatorUserId !== null || session.returnToUserId !== null)
    throw new Forbidden(teamMessages.onlyOwnSession);
  const invitation = liveOrNone(await findOpenInvitationByToken(tx, token, { lock: true }));
  if (!invitation) throw new TeamInvitationInvalid();
  if (user.email?.toLowerCase() !== invitation.email)
    throw new NotTheInvitedAccount(
      invitation.email,
      user.email ?? `${user.firstName} ${user.lastName}`,
    );
  return invitation;
}

/**
 * Joins: a staff membership with the invited claims, the invitation used up, the address
 * proven (the email reached its owner), the organisation's view remembered as the person's
 * latest. The caller's session ends; the route starts one in the organisation's view.
 */
export async function acceptTeamInvitation(
  db: Db,
  current: SessionContext,
  token: string,
): Promise<JoinedTeam> {
  return db.transaction(async (tx) => {
    const invitation = await lockAnswerable(tx, current, token);
    const org = await findOrganization(tx, invitation.orgId);
    if (!org) throw new TeamInvitationInvalid();
    const userId = current.user.id;
    await insertStaffMembership(tx, org.id, userId, normaliseClaims(invitation.claims));
    await endTeamInvitation(tx, invitation.id, {
      acceptedAt: new Date(),
      acceptedByUserId: userId,
    });
    await tx
      .update(users)
      .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
      .where(eq(users.id, userId));
    await mergeUserAttributes(tx, userId, { lastProfile: { view: 'org', orgId: org.id } });
    await revokeSession(tx, current.sessionId);
    await insertTeamAudit(tx, {
      orgId: org.id,
      actorUserId: userId,
      subjectUserId: userId,
      action: 'team.join',
      detail: {
        invitationId: invitation.id,
        claims: invitation.claims,
        invitedBy: invitation.invitedBy,
      },
    });
    return { orgId: org.id, orgLabel: org.label, redirectTo: '/dashboard' };
  });
}

/** Says no: the invitation ends; the organisation sees it gone from its pending list. */
export async function declineTeamInvitation(db: Db, current: SessionContext, token: string) {
  await db.transaction(async (tx) => {
    const invitation = await lockAnswerable(tx, current, token);
    await endTeamInvitation(tx, invitation.id, { declinedAt: new Date() });
    await insertTeamAudit(tx, {
      orgId: invitation.orgId,
      actorUserId: current.user.id,
      subjectUserId: current.user.id,
      action: 'team.decline',
      detail: { invitationId: invitation.id },
    });
  });
  return { success: true as const };
}
