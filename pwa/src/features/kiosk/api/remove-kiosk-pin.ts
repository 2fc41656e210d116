import { kioskPinStatusSchema, type KioskPinStatus } from '@platform/schema/kiosk/kiosk.zod';
import { api } from '../../../lib/api.ts';

/** DELETE /api/kiosk/pin. */
export function removeKioskPin(): Promise<KioskPinStatus> {
  return api('/api/kiosk/pin', { method: 'DELETE', schema: kioskPinStatusSchema });
}
