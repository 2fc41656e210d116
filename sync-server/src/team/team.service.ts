import type {
  ChangeMemberInput,
  InviteStaffInput,
  PendingTeamInvitation,
  TeamMember,
  TeamResponse,
} from '@platform/schema/team/team.zod';
import { teamInvitationPath } from '@platform/schema/team/team.zod';
import type { Claim } from '@platform/schema/organizations/claims';
import {
  claimsBeyondActor,
  leavesTeamWithoutManager,
  normaliseClaims,
  outranks,
  roleOf,
  roles,
  TEAM_CLAIM,
} from '@platform/schema/team/team.rules';
import { teamMessages } from '@platform/schema/team/team.messages';
import type { Mailer } from '../adapters/mailer/port.ts';
import { Forbidden } from '../plugins/domain-errors.ts';
import { revokeOrgViewSessions } from '../auth/sessions.service.ts';
import type { Db, Tx } from '../db/open-database.ts';
import { isUniqueViolation } from '../db/postgres-errors.ts';
import { findOrganization } from '../organizations/organizations.service.ts';
import type { TeamManager } from './team.access.ts';
import {
  AlreadyInvited,
  AlreadyMember,
  BeyondOwnClaims,
  LastTeamManager,
  MemberNotFound,
  Outranked,
  TeamInvitationNotFound,
} from './team.errors.ts';
import { teamInvitationEmail } from './team-invitation.email.ts';
import {
  endTeamInvitation,
  insertTeamInvitation,
  listOpenInvitations,
  lockOpenInvitation,
  lockOpenInvitationTo,
  renewTeamInvitation,
  type TeamInvitationRow,
} from './team-invitations.repository.ts';
import {
  deleteStaffMembership,
  insertTeamAudit,
  isStaffByEmail,
  listMembers,
  lockTeam,
  setMemberClaims,
} from './team.repository.ts';

export type TeamDeps = { db: Db; mailer: Mailer; publicUrl: string };

const fullName = (person: { firstName: string; lastName: string }) =>
  `${person.firstName} ${person.lastName}`.trim();

/** GET /api/team: who is on the team and who is invited, for the manager's organisation. */
export async function teamOf(db: Db, manager: TeamManager): Promise<TeamResponse> {
  const [members, invitations] = await Promise.all([
    listMembers(db, manager.orgId),
    listOpenInvitations(db, manager.orgId),
  ]);
  const now = Date.now();
  return {
    members: members.map((row): TeamMember => ({
      userId: row.userId,
      name: fullName(row),
      email: row.email,
      claims: normaliseClaims(row.claims),
      role: roleOf(row.claims),
      kioskPinSet: row.kioskPinSet,
      isYou: row.userId === manager.userId,
      joinedAt: row.joinedAt.toISOString(),
    })),
    invitations: invitations.map(({ invitation, inviterFirstName, inviterLastName }) =>
      pendingOf(
        invitation,
        inviterFirstName === null
          ? null
          : fullName({ firstName: inviterFirstName, lastName: inviterLastName ?? '' }),
        now,
      ),
    ),
  };
}

function pendingOf(
  row: TeamInvitationRow,
  invitedBy: string | null,
  now = Date.now(),
): PendingTeamInvitation {
  return {
    id: row.id,
    email: row.email,
    claims: normaliseClaims(row.claims),
    role: roleOf(row.claims),
    invitedBy,
    sentAt: row.sentAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    expired: row.expiresAt.getTime() <= now,
  };
}

/**
 * The manager's claims as they stand, read under the team's lock: a change made a moment ago
 * by someone else (their claims lowered) counts, not what the session read before.
 */
function actorIn(team: Awaited<ReturnType<typeof lockTeam>>, manager: TeamManager): Claim[] {
  const held = team.find((member) => member.userId === manager.userId)?.claims ?? [];
  if (!held.includes(TEAM_CLAIM)) throw new Forbidden(teamMessages.notAllowed);
  return normaliseClaims(held);
}

/**
 * Invites an address to the staff with these claims (never more than the manager holds). The
 * email with the token is queued in the same transaction: it exists only if the invitation does.
 * An open invitation to the address that has expired is replaced; a live one is said (409).
 */
export async function inviteStaff(
  deps: TeamDeps,
  manager: TeamManager,
  input: InviteStaffInput,
): Promise<PendingTeamInvitation> {
  const email = input.email.toLowerCase();
  const org = await findOrganization(deps.db, manager.orgId);
  if (!org) throw new Error('the session organisation does not exist');
  try {
    return await deps.db.transaction(async (tx) => {
      const actorClaims = actorIn(await lockTeam(tx, manager.orgId), manager);
      const beyond = claimsBeyondActor(actorClaims, [], input.claims);
      if (beyond.length > 0) throw new BeyondOwnClaims(beyond);
      if (await isStaffByEmail(tx, manager.orgId, email)) throw new AlreadyMember();
      const open = await lockOpenInvitationTo(tx, manager.orgId, email);
      if (open && open.expiresAt > new Date()) throw new AlreadyInvited(open.id);
      if (open) await endTeamInvitation(tx, open.id, { cancelledAt: new Date() });
      const { invitation, token } = await insertTeamInvitation(tx, {
        orgId: manager.orgId,
        email,
        claims: input.claims,
        invitedBy: manager.userId,
      });
      await sendInvitation(deps, tx, { org, manager, invitation, token });
      await audit(tx, manager, 'team.invite', null, {
        invitationId: invitation.id,
        email,
        claims: invitation.claims,
        replaced: open?.id ?? null,
      });
      return pendingOf(invitation, manager.name);
    });
  } catch (error) {
    // Two invitations to one address at the same moment: the open-invitation index keeps one.
    if (isUniqueViolation(error)) throw new AlreadyInvited('');
    throw error;
  }
}

/** Sends an open invitation again, with a new token and expiry (the old link stops working). */
export async function resendInvitation(
  deps: TeamDeps,
  manager: TeamManager,
  invitationId: string,
): Promise<PendingTeamInvitation> {
  const org = await findOrganization(deps.db, manager.orgId);
  if (!org) throw new Error('the session organisation does not exist');
  return deps.db.transaction(async (tx) => {
    const open = await lockOpenInvitation(tx, manager.orgId, invitationId);
    if (!open) throw new TeamInvitationNotFound();
    const { invitation, token } = await renewTeamInvitation(tx, open.id);
    await sendInvitation(deps, tx, { org, manager, invitation, token });
    await audit(tx, manager, 'team.invite-resend', null, { invitationId, email: invitation.email });
    return pendingOf(invitation, manager.name);
  });
}

export async function cancelInvitation(db: Db, manager: TeamManager, invitationId: string) {
  await db.transaction(async (tx) => {
    const open = await lockOpenInvitation(tx, manager.orgId, invitationId);
    if (!open) throw new TeamInvitationNotFound();
    await endTeamInvitation(tx, open.id, { cancelledAt: new Date() });
    await audit(tx, manager, 'team.invite-cancel', null, { invitationId, email: open.email });
  });
  return { success: true as const };
}

/**
 * New claims for a member. Refused: a member who can do what the manager cannot (403), claims
 * the manager does not hold (403 — so nobody raises their own), and the change that leaves
 * nobody able to manage the team (409).
 */
export async function changeMember(
  db: Db,
  manager: TeamManager,
  userId: string,
  input: ChangeMemberInput,
) {
  return db.transaction(async (tx) => {
    const team = await lockTeam(tx, manager.orgId);
    const actorClaims = actorIn(team, manager);
    const member = team.find((row) => row.userId === userId);
    if (!member) throw new MemberNotFound();
    if (userId !== manager.userId && outranks(actorClaims, member.claims)) throw new Outranked();
    const beyond = claimsBeyondActor(actorClaims, member.claims, input.claims);
    if (beyond.length > 0) throw new BeyondOwnClaims(beyond);
    if (leavesTeamWithoutManager(team, { userId, claims: input.claims }))
      throw new LastTeamManager();
    await setMemberClaims(tx, manager.orgId, userId, input.claims);
    await audit(tx, manager, 'team.change-claims', userId, {
      before: normaliseClaims(member.claims),
      after: input.claims,
    });
    return { userId, claims: input.claims, role: roleOf(input.claims) };
  });
}

/**
 * Takes a member off the team (a member may also leave). Their sessions in the organisation's
 * view end, so no open tab keeps drawing it. Never the last who can manage the team (409).
 */
export async function removeMember(db: Db, manager: TeamManager, userId: string) {
  await db.transaction(async (tx) => {
    const team = await lockTeam(tx, manager.orgId);
    const actorClaims = actorIn(team, manager);
    const member = team.find((row) => row.userId === userId);
    if (!member) throw new MemberNotFound();
    if (userId !== manager.userId && outranks(actorClaims, member.claims)) throw new Outranked();
    if (leavesTeamWithoutManager(team, { userId, claims: null })) throw new LastTeamManager();
    await deleteStaffMembership(tx, manager.orgId, userId);
    await revokeOrgViewSessions(tx, userId, manager.orgId);
    await audit(tx, manager, 'team.remove-member', userId, {
      claims: normaliseClaims(member.claims),
    });
  });
  return { success: true as const };
}

async function sendInvitation(
  deps: TeamDeps,
  tx: Tx,
  what: {
    org: { id: string; label: string };
    manager: TeamManager;
    invitation: TeamInvitationRow;
    token: string;
  },
) {
  await deps.mailer.send(
    teamInvitationEmail({
      to: what.invitation.email,
      orgId: what.org.id,
      orgLabel: what.org.label,
      inviterName: what.manager.name,
      roleLabel: roleLabelOrNull(what.invitation.claims),
      link: `${deps.publicUrl}${teamInvitationPath(what.token)}`,
    }),
    { tx },
  );
}

function roleLabelOrNull(claims: readonly string[]): string | null {
  const role = roleOf(claims);
  return role ? roles[role].label : null;
}

const audit = (
  tx: Tx,
  manager: TeamManager,
  action: Parameters<typeof insertTeamAudit>[1]['action'],
  subjectUserId: string | null,
  detail: Record<string, unknown>,
) =>
  insertTeamAudit(tx, {
    orgId: manager.orgId,
    actorUserId: manager.userId,
    subjectUserId,
    action,
    detail: { ...detail, impersonatorUserId: manager.impersonatorUserId },
  });
