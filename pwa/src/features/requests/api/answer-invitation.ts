import { api } from '../../../lib/api.ts';

/** POST /api/invitations/{id}/accept | decline. */
export function answerInvitation(invitationId: string, answer: 'accept' | 'decline') {
  return api(`/api/invitations/${encodeURIComponent(invitationId)}/${answer}`, {
    method: 'POST',
    json: {},
  });
}
