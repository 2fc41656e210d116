import type { FastifyRequest } from 'fastify';
import { teamMessages } from '@platform/schema/team/team.messages';
import { TEAM_CLAIM } from '@platform/schema/team/team.rules';
import { Forbidden } from '../plugins/domain-errors.ts';
import { requireSession } from '../plugins/session.ts';

/** A member of staff changing their organisation's team. */
export type TeamManager = {
  orgId: string;
  userId: string;
  name: string;
  /** The person behind a switched session (an admin), for the audit trail. */
  impersonatorUserId: string | null;
};

/**
 * Claim manage-org-staff in the session's organisation, org view. Everything the team routes
 * read or write is filtered by this orgId, so another organisation's ids answer 404. The
 * claims themselves are read again, locked, inside each change (team.service.ts).
 */
export async function requireTeamManager(request: FastifyRequest): Promise<TeamManager> {
  const { session, user, claims } = await requireSession(request);
  if (session.view !== 'org' || !session.orgId || !claims.includes(TEAM_CLAIM))
    throw new Forbidden(teamMessages.notAllowed);
  return {
    orgId: session.orgId,
    userId: user.id,
    name: `${user.firstName} ${user.lastName}`.trim(),
    impersonatorUserId: session.impersonatorUserId,
  };
}
