import { okResponseSchema } from '@platform/schema/families/families.zod';
import { api } from '../../../lib/api.ts';

/**
 * spec §7 POST /api/guardians, action remove-guardian: ends one guardian link. Removing a
 * guardian and disconnecting a child are the same link seen from either side.
 */
export async function removeGuardianLink(link: {
  userId: string;
  guardianUserId: string;
}): Promise<void> {
  await api('/api/guardians', {
    json: { action: 'remove-guardian', ...link },
    schema: okResponseSchema,
  });
}
