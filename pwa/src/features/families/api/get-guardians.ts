import {
  familyMembersResponseSchema,
  type FamilyMember,
} from '@platform/schema/families/families.zod';
import { api } from '../../../lib/api.ts';

/** spec §7 POST /api/guardians, action get-guardians: the subject's parents/guardians. */
export function getGuardians(userId: string, signal?: AbortSignal): Promise<FamilyMember[]> {
  return api('/api/guardians', {
    json: { action: 'get-guardians', userId },
    schema: familyMembersResponseSchema,
    ...(signal ? { signal } : {}),
  });
}
