import {
  addCustomerResponseSchema,
  type AddCustomerRequest,
  type AddCustomerResponse,
} from '@platform/schema/crm/crm.zod';
import { api } from '../../../lib/api.ts';

/** POST /api/crm/customers: creates (or links) the person and their roster item, invites them. */
export function addCustomer(request: AddCustomerRequest): Promise<AddCustomerResponse> {
  return api('/api/crm/customers', { json: request, schema: addCustomerResponseSchema });
}
