import {
  crmTagsResponseSchema,
  customerMetricSchema,
  type CustomerMetric,
} from '@platform/schema/crm/crm.zod';
import { api } from '../../../lib/api.ts';

const customerPath = (rosterId: string) => `/api/crm/customers/${encodeURIComponent(rosterId)}`;

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
