import { customerProfileSchema, type CustomerProfile } from '@platform/schema/crm/crm.zod';
import { api } from '../../../lib/api.ts';

/** GET /api/crm/customers/:rosterId — 404 for an id of another organisation. */
export function getCustomerProfile(
  rosterId: string,
  signal?: AbortSignal,
): Promise<CustomerProfile> {
  return api(`/api/crm/customers/${encodeURIComponent(rosterId)}`, {
    schema: customerProfileSchema,
    ...(signal ? { signal } : {}),
  });
}
