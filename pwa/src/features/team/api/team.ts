import {
  pendingTeamInvitationSchema,
  teamResponseSchema,
  type ChangeMemberInput,
  type InviteStaffInput,
  type PendingTeamInvitation,
  type TeamResponse,
} from '@platform/schema/team/team.zod';
import { api } from '../../../lib/api.ts';

/** GET /api/team: the members and the invitations waiting (the session's organisation). */
export function getTeam(signal?: AbortSignal): Promise<TeamResponse> {
  return api('/api/team', { schema: teamResponseSchema, ...(signal ? { signal } : {}) });
}

/** POST /api/team/invitations. */
export function inviteStaff(input: InviteStaffInput): Promise<PendingTeamInvitation> {
  return api('/api/team/invitations', { json: input, schema: pendingTeamInvitationSchema });
}

/** POST /api/team/invitations/{id}/resend: a new link (the old one stops working). */
export function resendInvitation(invitationId: string): Promise<PendingTeamInvitation> {
  return api(`/api/team/invitations/${encodeURIComponent(invitationId)}/resend`, {
    method: 'POST',
    json: {},
    schema: pendingTeamInvitationSchema,
  });
}

/** DELETE /api/team/invitations/{id}. */
export function cancelInvitation(invitationId: string) {
  return api(`/api/team/invitations/${encodeURIComponent(invitationId)}`, { method: 'DELETE' });
}

/** PUT /api/team/members/{userId}: what the member may do from now on. */
export function changeMember(userId: string, input: ChangeMemberInput) {
  return api(`/api/team/members/${encodeURIComponent(userId)}`, { method: 'PUT', json: input });
}

/** DELETE /api/team/members/{userId}. */
export function removeMember(userId: string) {
  return api(`/api/team/members/${encodeURIComponent(userId)}`, { method: 'DELETE' });
}
