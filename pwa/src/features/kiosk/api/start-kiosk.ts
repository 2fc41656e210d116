import { kioskSchema, type Kiosk, type StartKioskInput } from '@platform/schema/kiosk/kiosk.zod';
import { api } from '../../../lib/api.ts';

/** POST /api/kiosk/start: ends the staff session on this device and makes it the kiosk. */
export function startKiosk(input: StartKioskInput): Promise<Kiosk> {
  return api('/api/kiosk/start', { json: input, schema: kioskSchema });
}
