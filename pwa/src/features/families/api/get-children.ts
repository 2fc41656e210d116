import {
  familyMembersResponseSchema,
  type FamilyMember,
} from '@platform/schema/families/families.zod';
import { api } from '../../../lib/api.ts';

/** spec §7 POST /api/guardians, action get-guardians-of: the children of a guardian. */
export function getChildren(guardianUserId: string, signal?: AbortSignal): Promise<FamilyMember[]> {
  return api('/api/guardians', {
    json: { action: 'get-guardians-of', guardianUserId },
    schema: familyMembersResponseSchema,
    ...(signal ? { signal } : {}),
  });
}
