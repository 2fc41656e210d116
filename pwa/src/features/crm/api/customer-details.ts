import {
  crmTagsResponseSchema,
  customerMetricSchema,
  customerNoteSchema,
  customerProfileSchema,
  type CustomerMetric,
  type CustomerNote,
  type CustomerProfile,
} from '@platform/schema/crm/crm.zod';
import { api } from '../../../lib/api.ts';

const customerPath = (rosterId: string) => `/api/crm/customers/${encodeURIComponent(rosterId)}`;

/** PUT /api/crm/customers/:rosterId/tags: the customer's whole tag list. */
export function setCustomerTags(rosterId: string, tags: string[]): Promise<CustomerProfile> {
  return api(`${customerPath(rosterId)}/tags`, {
    method: 'PUT',
    json: { tags },
    schema: customerProfileSchema,
  });
}

/** POST /api/crm/customers/:rosterId/notes */
export function addCustomerNote(rosterId: string, body: string): Promise<CustomerNote> {
  return api(`${customerPath(rosterId)}/notes`, { json: { body }, schema: customerNoteSchema });
}

/** POST /api/crm/customers/:rosterId/metrics */
export function addCustomerMetric(
  rosterId: string,
  metric: { name: string; value: string; measuredOn: string },
): Promise<CustomerMetric> {
  return api(`${customerPath(rosterId)}/metrics`, { json: metric, schema: customerMetricSchema });
}

/** GET /api/crm/tags: the organisation's tags, for the filter. */
export async function getCrmTags(signal?: AbortSignal): Promise<string[]> {
  const answer = await api('/api/crm/tags', {
    schema: crmTagsResponseSchema,
    ...(signal ? { signal } : {}),
  });
  return answer.tags;
}
