import {
  rosterSearchResponseSchema,
  type RosterSearchQuery,
  type RosterSearchResponse,
} from '@platform/schema/crm/crm.zod';
import { api } from '../../../lib/api.ts';

/** GET /api/crm/customers: server-side search and keyset paging of the organisation's roster. */
export function searchCustomers(
  query: RosterSearchQuery,
  signal?: AbortSignal,
): Promise<RosterSearchResponse> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== '') params.set(key, String(value));
  return api(`/api/crm/customers?${params}`, {
    schema: rosterSearchResponseSchema,
    ...(signal ? { signal } : {}),
  });
}
