import { verifyPinAnswerSchema, type VerifyPinInput } from '@platform/schema/kiosk/kiosk.zod';
import { kioskRequest } from './kiosk-request.ts';

/** POST /api/kiosk/verify-pin: 200, or 422 (wrong or no PIN), 429 (locked out), 401 (kiosk ended). */
export function verifyPin(input: VerifyPinInput): Promise<{ ok: true }> {
  return kioskRequest('/api/kiosk/verify-pin', { json: input, schema: verifyPinAnswerSchema });
}
