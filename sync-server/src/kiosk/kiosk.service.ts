import { fullName } from '@platform/schema/app/full-name.rules';
import type { Kiosk, VerifyPinInput } from '@platform/schema/kiosk/kiosk.zod';
import { kioskMessages } from '@platform/schema/kiosk/kiosk.messages';
import { MAX_PIN_FAILURES, pinSchema } from '@platform/schema/kiosk/kiosk-pin.rules';
import { verifyPassword } from '../auth/passwords.ts';
import { verifyPasswordWithinLimits } from '../auth/sign-in-limits.ts';
import { hashToken, newToken } from '../auth/tokens.ts';
import type { Db } from '../db/open-database.ts';
import type { SessionContext } from '../plugins/session.ts';
import { attemptSucceeded, startAttempt, waitingSubjects } from '../rate-limits/rate-limits.ts';
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
import { kioskPinLimit, pinSubject } from './kiosk-pin.service.ts';
import { findPin, kioskStaffAmong, listKioskStaff } from './kiosk-pins.repository.ts';

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
export async function describeKiosk(
  db: Db,
  { kiosk, org, starter }: LiveKiosk,
  now = new Date(),
): Promise<Kiosk> {
  const staff = await listKioskStaff(db, kiosk.orgId);
  const locks = await waitingSubjects(
    db,
    kioskPinLimit,
    staff.map((person) => pinSubject(person.userId, kiosk.id)),
    now,
  );
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
      // This kiosk's lock only: one at another kiosk does not hold here.
      lockedUntil: locks.get(pinSubject(person.userId, kiosk.id))?.toISOString() ?? null,
    })),
  };
}

/**
 * The server's check of a PIN typed at an online kiosk: argon2id, and a lock at this kiosk
 * after MAX_PIN_FAILURES wrong ones in a row (kioskPinLimit). The attempt is counted before
 * the check, so a burst of guesses cannot slip past the limit.
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
  const subject = pinSubject(input.userId, kiosk.id);
  const attempt = await startAttempt(db, kioskPinLimit, subject, now);
  if (!attempt.ok) throw new PinLocked(new Date(now.getTime() + attempt.retryAfterMs), now);
  const right =
    pinSchema.safeParse(input.pin).success && (await verifyPassword(stored.pinHash, input.pin));
  if (right) {
    await attemptSucceeded(db, kioskPinLimit, subject);
    return { ok: true as const };
  }
  if (attempt.waitIfFailedMs === 0) throw new WrongPin(MAX_PIN_FAILURES - attempt.failures);
  throw new PinLocked(new Date(now.getTime() + attempt.waitIfFailedMs), now);
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
  const right = await verifyPasswordWithinLimits(
    db,
    { account: starter.id, ip, passwordHash: starter.passwordHash },
    password,
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
