import type { Kiosk, VerifyPinInput } from '@platform/schema/kiosk/kiosk.zod';
import { kioskMessages } from '@platform/schema/kiosk/kiosk.messages';
import { MAX_PIN_FAILURES, PIN_LOCK_MS, pinSchema } from '@platform/schema/kiosk/kiosk-pin.rules';
import { verifyPassword } from '../auth/passwords.ts';
import { checkPasswordWithinLimits } from '../auth/sign-in-limits.ts';
import { hashToken, newToken } from '../auth/sessions.repository.ts';
import type { Db } from '../db/open-database.ts';
import type { SessionContext } from '../plugins/session.ts';
import {
  insertKioskDevice,
  recordKioskEvent,
  revokeKiosk,
  type LiveKiosk,
} from './kiosk-devices.repository.ts';
import {
  KioskStartRefused,
  NoPin,
  NotAtThisKiosk,
  PinLocked,
  WrongKioskPassword,
  WrongPin,
} from './kiosk.errors.ts';
import {
  clearPinFailures,
  countPinAttempt,
  findPin,
  kioskStaffAmong,
  listKioskStaff,
  lockPin,
} from './kiosk-pins.repository.ts';

const fullName = (person: { firstName: string; lastName: string }) =>
  `${person.firstName} ${person.lastName}`.trim();

/**
 * Turns the requesting device into the organisation's kiosk (the route has checked the claim
 * in that organisation). Leaving needs the starter's password, so a starter without one (a
 * Google-only account) cannot start a kiosk they could never leave.
 */
export async function startKiosk(
  db: Db,
  session: SessionContext,
  orgId: string,
  userAgent: string | undefined,
): Promise<{ kioskId: string; token: string }> {
  if (!session.user.passwordHash) throw new KioskStartRefused(kioskMessages.startNeedsPassword);
  const token = newToken();
  const kioskId = await insertKioskDevice(db, {
    orgId,
    startedByUserId: session.user.id,
    tokenHash: hashToken(token),
    userAgent,
  });
  await recordKioskEvent(db, { orgId, userId: session.user.id, kioskId, action: 'kiosk-started' });
  return { kioskId, token };
}

/** GET /api/kiosk: who clocks in here (names only) and what checks their PINs offline. */
export async function describeKiosk(db: Db, { kiosk, org, starter }: LiveKiosk): Promise<Kiosk> {
  const staff = await listKioskStaff(db, kiosk.orgId);
  return {
    id: kiosk.id,
    org: { id: org.id, label: org.label, timezone: org.attributes.timezone ?? null },
    startedBy: { id: starter.id, name: fullName(starter) },
    staff: staff.map((person) => ({
      userId: person.userId,
      name: fullName(person),
      pin: person.pin
        ? {
            salt: person.pin.verifierSalt,
            iterations: person.pin.verifierIterations,
            verifier: person.pin.verifier,
          }
        : null,
      lockedUntil: person.pin?.lockedUntil?.toISOString() ?? null,
    })),
  };
}

/**
 * The server's check of a PIN typed at an online kiosk: argon2id, and a lock after
 * MAX_PIN_FAILURES wrong ones in a row. The attempt is counted before the check, so a burst of
 * guesses from several kiosks cannot slip past the limit.
 */
export async function verifyKioskPin(
  db: Db,
  { kiosk }: LiveKiosk,
  input: VerifyPinInput,
  now = new Date(),
) {
  if (!(await kioskStaffAmong(db, kiosk.orgId, [input.userId])).has(input.userId))
    throw new NotAtThisKiosk();
  const stored = await findPin(db, input.userId);
  if (!stored) throw new NoPin();
  const attempt = await countPinAttempt(db, input.userId, now);
  if (attempt === null) {
    const lockedUntil =
      (await findPin(db, input.userId))?.lockedUntil ?? new Date(now.getTime() + PIN_LOCK_MS);
    throw new PinLocked(lockedUntil, now);
  }
  // Guesses beyond the limit that raced the one that locked: refused unchecked.
  if (attempt > MAX_PIN_FAILURES) throw new PinLocked(new Date(now.getTime() + PIN_LOCK_MS), now);
  const right =
    pinSchema.safeParse(input.pin).success && (await verifyPassword(stored.pinHash, input.pin));
  if (right) {
    await clearPinFailures(db, input.userId);
    return { ok: true as const };
  }
  if (attempt < MAX_PIN_FAILURES) throw new WrongPin(MAX_PIN_FAILURES - attempt);
  const lockedUntil = new Date(now.getTime() + PIN_LOCK_MS);
  await lockPin(db, input.userId, lockedUntil);
  throw new PinLocked(lockedUntil, now);
}

/**
 * Leaving needs the starter's password, under the sign-in limits and counted as the same
 * account at the same address as a log-in: guesses at the kiosk and at the log-in page there
 * share one budget, and failures anywhere else never keep the kiosk from being left.
 */
export async function leaveKiosk(
  db: Db,
  { kiosk, starter }: LiveKiosk,
  password: string,
  ip: string,
) {
  const right = await checkPasswordWithinLimits(db, { account: starter.id, ip }, () =>
    verifyPassword(starter.passwordHash, password),
  );
  if (!right) throw new WrongKioskPassword();
  await revokeKiosk(db, kiosk.id);
  await recordKioskEvent(db, {
    orgId: kiosk.orgId,
    userId: starter.id,
    kioskId: kiosk.id,
    action: 'kiosk-left',
  });
}
