import {
  kioskMessages,
  pinLockedMessage,
  wrongPinMessage,
} from '@platform/schema/kiosk/kiosk.messages';
import {
  afterWrongPin,
  MAX_PIN_FAILURES,
  noPinFailures,
  pinLockRemainingMs,
  pinMatches,
} from '@platform/schema/kiosk/kiosk-pin.rules';
import type { Kiosk, KioskStaffMember } from '@platform/schema/kiosk/kiosk.zod';
import { ApiError, NetworkError } from '../../lib/api.ts';
import { verifyPin } from './api/verify-pin.ts';
import { pinFailuresOf, savePinFailures } from './kiosk-store.ts';

export type PinOutcome = { ok: true } | { ok: false; message: string; kioskEnded?: true };

const lockOf = (body: unknown): string | null => {
  const until = (body as { details?: { lockedUntil?: unknown } } | null)?.details?.lockedUntil;
  return typeof until === 'string' ? until : null;
};

/**
 * Checks a PIN typed at the kiosk. Online, the server decides (argon2id, its own count and
 * lock, shared by every kiosk); offline, the verifier this kiosk was given, with a count and
 * lock of its own. Either side's lock holds on both (decision 0011).
 */
export async function checkPin(
  kiosk: Kiosk,
  person: KioskStaffMember,
  pin: string,
  now = new Date(),
): Promise<PinOutcome> {
  const local = pinFailuresOf(kiosk.id, person.userId);
  const lockedFor = pinLockRemainingMs(now, local.lockedUntil, person.lockedUntil);
  if (lockedFor > 0) return { ok: false, message: pinLockedMessage(lockedFor) };
  try {
    await verifyPin({ userId: person.userId, pin });
    savePinFailures(kiosk.id, person.userId, noPinFailures);
    return { ok: true };
  } catch (error) {
    if (!(error instanceof NetworkError)) return serverRefusal(kiosk, person, error);
  }
  if (!person.pin) return { ok: false, message: kioskMessages.noPin };
  if (await pinMatches(pin, person.pin)) {
    savePinFailures(kiosk.id, person.userId, noPinFailures);
    return { ok: true };
  }
  const next = afterWrongPin(local, now);
  savePinFailures(kiosk.id, person.userId, next);
  if (next.lockedUntil)
    return { ok: false, message: pinLockedMessage(pinLockRemainingMs(now, next.lockedUntil)) };
  return { ok: false, message: wrongPinMessage(MAX_PIN_FAILURES - next.failures) };
}

function serverRefusal(kiosk: Kiosk, person: KioskStaffMember, error: unknown): PinOutcome {
  if (!(error instanceof ApiError)) throw error;
  if (error.status === 401)
    return { ok: false, message: kioskMessages.kioskEnded, kioskEnded: true };
  const lockedUntil = error.status === 429 ? lockOf(error.body) : null;
  // The server's lock is kept here too, so going offline does not lift it.
  if (lockedUntil) savePinFailures(kiosk.id, person.userId, { failures: 0, lockedUntil });
  return { ok: false, message: error.message };
}
