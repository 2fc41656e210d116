import { kioskSchema, type Kiosk } from '@platform/schema/kiosk/kiosk.zod';
import { noPinFailures, type PinFailures } from '@platform/schema/kiosk/kiosk-pin.rules';
import { z } from 'zod';

// What the kiosk keeps on the device to work with no network: itself (organisation, staff
// names, PIN verifiers) and its own count of wrong PINs per person. localStorage, because it
// is small and read before anything else; decision 0011 says what holding verifiers costs.
const KIOSK_KEY = 'kiosk:device';
const failuresKey = (kioskId: string) => `kiosk:pin-failures:${kioskId}`;
const failuresSchema = z.record(
  z.string(),
  z.object({ failures: z.number().int(), lockedUntil: z.string().nullable() }),
);

function read<T>(key: string, schema: z.ZodType<T>): T | null {
  try {
    const text = localStorage.getItem(key);
    if (text === null) return null;
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function write(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or unavailable: the kiosk still works while this page stays open.
  }
}

export function savedKiosk(): Kiosk | null {
  return read(KIOSK_KEY, kioskSchema);
}

export function saveKiosk(kiosk: Kiosk): void {
  write(KIOSK_KEY, kiosk);
}

export function forgetKiosk(kioskId: string): void {
  try {
    localStorage.removeItem(KIOSK_KEY);
    localStorage.removeItem(failuresKey(kioskId));
  } catch {
    // Nothing was kept.
  }
}

export function pinFailuresOf(kioskId: string, userId: string): PinFailures {
  return read(failuresKey(kioskId), failuresSchema)?.[userId] ?? noPinFailures;
}

export function savePinFailures(kioskId: string, userId: string, state: PinFailures): void {
  const all = read(failuresKey(kioskId), failuresSchema) ?? {};
  all[userId] = state;
  write(failuresKey(kioskId), all);
}
