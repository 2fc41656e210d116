import {
  kioskMessages,
  pinLockedMessage,
  wrongPinMessage,
} from '@platform/schema/kiosk/kiosk.messages';
import { Forbidden, NotFound, RuleBroken } from '../plugins/domain-errors.ts';
import { RateLimited } from '../rate-limits/rate-limits.ts';

/** 422, with the tries left before the lock. */
export class WrongPin extends RuleBroken {
  constructor(readonly triesLeft: number) {
    super(wrongPinMessage(triesLeft), { triesLeft });
  }
}

/** 429 until `lockedUntil`; the kiosk keeps the lock for when it is offline. */
export class PinLocked extends RateLimited {
  constructor(lockedUntil: Date, now: Date) {
    const remainingMs = lockedUntil.getTime() - now.getTime();
    super(remainingMs, pinLockedMessage(remainingMs), { lockedUntil: lockedUntil.toISOString() });
  }
}

export class NoPin extends RuleBroken {
  constructor() {
    super(kioskMessages.noPin);
  }
}

/** 404: not staff of the kiosk's organisation who tracks time. */
export class NotAtThisKiosk extends NotFound {
  constructor() {
    super(kioskMessages.notAtThisKiosk);
  }
}

/** 403, not 401: to the kiosk a 401 means its own credential is gone. */
export class WrongKioskPassword extends Forbidden {
  constructor() {
    super(kioskMessages.wrongPassword);
  }
}

export class KioskStartRefused extends Forbidden {}
