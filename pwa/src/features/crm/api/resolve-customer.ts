import { crmRedirectResponseSchema } from '@platform/schema/crm/crm.zod';
import { api } from '../../../lib/api.ts';

/** GET /api/crm/redirect: the roster id of a customer named by roster id or user id. */
export async function resolveCustomer(
  target: { rosterId: string } | { userId: string },
  signal?: AbortSignal,
): Promise<string> {
  const answer = await api(`/api/crm/redirect?${new URLSearchParams(target)}`, {
    schema: crmRedirectResponseSchema,
    ...(signal ? { signal } : {}),
  });
  return answer.rosterId;
}
