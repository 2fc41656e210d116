import type { KioskPinStatus } from '@platform/schema/kiosk/kiosk.zod';
import { MAX_PIN_FAILURES, newPinVerifier, PIN_LOCK_MS } from '@platform/schema/kiosk/kiosk-pin.rules';
import { hashPassword } from '../auth/passwords.ts';
import type { Db } from '../db/open-database.ts';
import { backoffRule, forgetRuns, latestWaitAmong } from '../rate-limits/rate-limits.ts';
import { deletePin, findPin, savePin } from './kiosk-pins.repository.ts';

/**
 * Wrong PINs lock a person out at one kiosk (decision 0020): the fifth in a row locks them
 * there for PIN_LOCK_MS, after which the count starts again — as each kiosk does offline. A
 * lock keyed on the person alone would let anyone at another kiosk keep them locked out.
 */
export const kioskPinLimit = backoffRule({
  name: 'kiosk-pin',
  waitAfter: MAX_PIN_FAILURES,
  firstWaitMs: PIN_LOCK_MS,
  maxWaitMs: PIN_LOCK_MS,
  forgetAfterMs: PIN_LOCK_MS,
});

/** The person's runs at each kiosk share this prefix: a new PIN lifts them all. */
const runsOf = (userId: string) => `${userId}:`;
export const pinSubject = (userId: string, kioskId: string) => `${runsOf(userId)}${kioskId}`;

/** The PIN is kept only as an argon2id hash and a PBKDF2 verifier; neither ever leaves to its owner. */
export async function setKioskPin(db: Db, userId: string, pin: string): Promise<KioskPinStatus> {
  const [pinHash, verifier] = await Promise.all([hashPassword(pin), newPinVerifier(pin)]);
  await savePin(db, userId, pinHash, verifier);
  // A new PIN, chosen while signed in, starts with a clean slate.
  await forgetRuns(db, kioskPinLimit, runsOf(userId));
  return { hasPin: true, lockedUntil: null };
}

export async function removeKioskPin(db: Db, userId: string): Promise<KioskPinStatus> {
  await deletePin(db, userId);
  await forgetRuns(db, kioskPinLimit, runsOf(userId));
  return { hasPin: false, lockedUntil: null };
}

/** The person's own view: whether they have a PIN, and the latest lock at any kiosk. */
export async function kioskPinStatus(
  db: Db,
  userId: string,
  now = new Date(),
): Promise<KioskPinStatus> {
  const [stored, lockedUntil] = await Promise.all([
    findPin(db, userId),
    latestWaitAmong(db, kioskPinLimit, runsOf(userId), now),
  ]);
  return { hasPin: stored !== undefined, lockedUntil: lockedUntil?.toISOString() ?? null };
}
