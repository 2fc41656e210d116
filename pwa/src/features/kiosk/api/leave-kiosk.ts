import { z } from 'zod';
import type { LeaveKioskInput } from '@platform/schema/kiosk/kiosk.zod';
import { kioskRequest } from './kiosk-request.ts';

/** POST /api/kiosk/leave: 204 with the starter's password; 403 wrong, 429 too many tries. */
export async function leaveKiosk(input: LeaveKioskInput): Promise<void> {
  await kioskRequest('/api/kiosk/leave', { json: input, schema: z.null() });
}
