import {
  pendingInvitationsResponseSchema,
  type PendingInvitation,
} from '@platform/schema/crm/crm.zod';
import { api } from '../../../lib/api.ts';

/** GET /api/invitations: organisations waiting for the signed-in person's answer. */
export function getPendingInvitations(signal?: AbortSignal): Promise<PendingInvitation[]> {
  return api('/api/invitations', {
    schema: pendingInvitationsResponseSchema,
    ...(signal ? { signal } : {}),
  });
}
