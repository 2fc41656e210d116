import { kioskSchema, type Kiosk } from '@platform/schema/kiosk/kiosk.zod';
import { kioskRequest } from './kiosk-request.ts';

/** GET /api/kiosk: this kiosk, its organisation, and who clocks in here with their PIN verifiers. */
export function getKiosk(): Promise<Kiosk> {
  return kioskRequest('/api/kiosk', { schema: kioskSchema });
}
