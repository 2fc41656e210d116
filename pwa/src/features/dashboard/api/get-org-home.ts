import { orgHomeSchema, type OrgHome } from '@platform/schema/organizations/org-home.zod';
import { api } from '../../../lib/api.ts';

/** GET /api/organizations/:orgId/home: the setup checklist and today's figures. */
export function getOrgHome(orgId: string, signal?: AbortSignal): Promise<OrgHome> {
  return api(`/api/organizations/${orgId}/home`, {
    schema: orgHomeSchema,
    ...(signal ? { signal } : {}),
  });
}
