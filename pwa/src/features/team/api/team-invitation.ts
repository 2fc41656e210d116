import {
  joinedTeamSchema,
  teamInvitationPreviewSchema,
  type JoinedTeam,
  type TeamInvitationPreview,
} from '@platform/schema/team/team.zod';
import { api } from '../../../lib/api.ts';

/** POST /api/team-invitations/preview: what the emailed link opens (no session needed). */
export function previewTeamInvitation(
  token: string,
  signal?: AbortSignal,
): Promise<TeamInvitationPreview> {
  return api('/api/team-invitations/preview', {
    json: { token },
    schema: teamInvitationPreviewSchema,
    ...(signal ? { signal } : {}),
  });
}

/** POST /api/team-invitations/accept: the session moves to the organisation's view. */
export function acceptTeamInvitation(token: string): Promise<JoinedTeam> {
  return api('/api/team-invitations/accept', { json: { token }, schema: joinedTeamSchema });
}

export function declineTeamInvitation(token: string) {
  return api('/api/team-invitations/decline', { json: { token } });
}
