import {
  waiverSchema,
  type Waiver,
  type WaiverInput,
} from '@platform/schema/organizations/documents.zod';
import { api } from '../../../lib/api.ts';

const waiverPath = (orgId: string) => `/api/organizations/${orgId}/documents/waiver-of-liability`;

export function getWaiver(orgId: string, signal?: AbortSignal): Promise<Waiver> {
  return api(waiverPath(orgId), { schema: waiverSchema, ...(signal ? { signal } : {}) });
}

export function saveWaiver(orgId: string, input: WaiverInput): Promise<Waiver> {
  return api(waiverPath(orgId), { method: 'PUT', json: input, schema: waiverSchema });
}
