import {
  kioskPinStatusSchema,
  type KioskPinStatus,
  type SetKioskPinInput,
} from '@platform/schema/kiosk/kiosk.zod';
import { api } from '../../../lib/api.ts';

/** PUT /api/kiosk/pin: sets or replaces the person's PIN (and lifts a lock). */
export function setKioskPin(input: SetKioskPinInput): Promise<KioskPinStatus> {
  return api('/api/kiosk/pin', { method: 'PUT', json: input, schema: kioskPinStatusSchema });
}
