import { kioskPinStatusSchema, type KioskPinStatus } from '@platform/schema/kiosk/kiosk.zod';
import { api } from '../../../lib/api.ts';

/** GET /api/kiosk/pin: whether the signed-in person has a kiosk PIN (never the PIN). */
export function getKioskPinStatus(signal?: AbortSignal): Promise<KioskPinStatus> {
  return api('/api/kiosk/pin', { schema: kioskPinStatusSchema, ...(signal ? { signal } : {}) });
}
