import { z } from 'zod';
import { api } from '../../../lib/api.ts';

const resentSchema = z.object({ inviteSent: z.boolean() });

/** POST /api/crm/customers/{rosterId}/invitation: a new link by email (the old ones stop working). */
export function resendInvitation(rosterId: string): Promise<{ inviteSent: boolean }> {
  return api(`/api/crm/customers/${encodeURIComponent(rosterId)}/invitation`, {
    method: 'POST',
    json: {},
    schema: resentSchema,
  });
}
