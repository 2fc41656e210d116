import type { KioskPinStatus } from '@platform/schema/kiosk/kiosk.zod';
import { newPinVerifier } from '@platform/schema/kiosk/kiosk-pin.rules';
import { hashPassword } from '../auth/passwords.ts';
import type { Db } from '../db/open-database.ts';
import { deletePin, findPin, savePin } from './kiosk-pins.repository.ts';

/** The PIN is kept only as an argon2id hash and a PBKDF2 verifier; neither ever leaves to its owner. */
export async function setKioskPin(db: Db, userId: string, pin: string): Promise<KioskPinStatus> {
  const [pinHash, verifier] = await Promise.all([hashPassword(pin), newPinVerifier(pin)]);
  await savePin(db, userId, pinHash, verifier);
  return { hasPin: true, lockedUntil: null };
}

export async function removeKioskPin(db: Db, userId: string): Promise<KioskPinStatus> {
  await deletePin(db, userId);
  return { hasPin: false, lockedUntil: null };
}

export async function kioskPinStatus(
  db: Db,
  userId: string,
  now = new Date(),
): Promise<KioskPinStatus> {
  const stored = await findPin(db, userId);
  const locked =
    stored?.lockedUntil && stored.lockedUntil > now ? stored.lockedUntil.toISOString() : null;
  return { hasPin: stored !== undefined, lockedUntil: locked };
}
