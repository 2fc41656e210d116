import {
  familyMembersResponseSchema,
  type FamilyMember,
} from '@platform/schema/families/families.zod';
import { api } from '../../../lib/api.ts';

/** The person's guardian links that wait for them to confirm (POST /api/guardians get-guardians). */
export async function getGuardianRequests(
  userId: string,
  signal?: AbortSignal,
): Promise<FamilyMember[]> {
  const guardians = await api('/api/guardians', {
    json: { action: 'get-guardians', userId },
    schema: familyMembersResponseSchema,
    ...(signal ? { signal } : {}),
  });
  return guardians.filter((guardian) => guardian.awaitingConfirmation === true);
}

/** confirm-guardian (decision 0035) or remove-guardian: the owner's answer to a link. */
export function answerGuardianRequest(
  userId: string,
  guardianUserId: string,
  answer: 'confirm' | 'remove',
) {
  return api('/api/guardians', {
    json: { action: `${answer}-guardian`, userId, guardianUserId },
  });
}
