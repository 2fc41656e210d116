import { pbkdf2Sync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { kioskMessages, pinLockedMessage, wrongPinMessage } from './kiosk.messages.ts';
import {
  afterWrongPin,
  derivePinVerifier,
  MAX_PIN_FAILURES,
  newPinVerifier,
  noPinFailures,
  PIN_LOCK_MS,
  PIN_VERIFIER_ITERATIONS,
  pinLockRemainingMs,
  pinMatches,
  pinSchema,
} from './kiosk-pin.rules.ts';

describe('a kiosk PIN', () => {
  it('is 4 to 8 digits', () => {
    for (const pin of ['0000', '1234', '12345678'])
      expect(pinSchema.safeParse(pin).success).toBe(true);
    for (const pin of ['123', '123456789', '12a4', ' 1234', '１２３４', '']) {
      const result = pinSchema.safeParse(pin);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(kioskMessages.pinFormat);
    }
  });
});

describe('the offline PIN verifier', () => {
  it('is PBKDF2-HMAC-SHA-256, the same bytes Node computes', async () => {
    const salt = Buffer.from('a-salt-of-16-byt').toString('base64');
    const expected = pbkdf2Sync('4821', Buffer.from(salt, 'base64'), 1000, 32, 'sha256').toString(
      'base64',
    );
    expect(await derivePinVerifier('4821', salt, 1000)).toBe(expected);
  });

  it('gets a fresh salt each time and matches only its own PIN', async () => {
    const first = await newPinVerifier('4821');
    const second = await newPinVerifier('4821');
    expect(first.iterations).toBe(PIN_VERIFIER_ITERATIONS);
    expect(first.salt).not.toBe(second.salt);
    expect(first.verifier).not.toBe(second.verifier);
    expect(await pinMatches('4821', first)).toBe(true);
    expect(await pinMatches('4822', first)).toBe(false);
    expect(await pinMatches('48210', first)).toBe(false);
    expect(await pinMatches('', first)).toBe(false);
  });
});

describe('the lock after wrong PINs', () => {
  const now = new Date('2026-11-23T08:00:00.000Z');

  it('locks on the fifth wrong PIN in a row, for fifteen minutes, and starts counting again', () => {
    let state = noPinFailures;
    for (let i = 1; i < MAX_PIN_FAILURES; i++) {
      state = afterWrongPin(state, now);
      expect(state).toEqual({ failures: i, lockedUntil: null });
      expect(pinLockRemainingMs(now, state.lockedUntil)).toBe(0);
    }
    state = afterWrongPin(state, now);
    expect(state).toEqual({
      failures: 0,
      lockedUntil: new Date(now.getTime() + PIN_LOCK_MS).toISOString(),
    });
    expect(pinLockRemainingMs(now, state.lockedUntil)).toBe(PIN_LOCK_MS);
    expect(pinLockRemainingMs(new Date(now.getTime() + PIN_LOCK_MS), state.lockedUntil)).toBe(0);
  });

  it('takes the later of the device’s and the server’s locks', () => {
    const soon = new Date(now.getTime() + 60_000).toISOString();
    const later = new Date(now.getTime() + 600_000).toISOString();
    expect(pinLockRemainingMs(now, soon, later, null)).toBe(600_000);
    expect(pinLockRemainingMs(now, null, undefined)).toBe(0);
  });

  it('says how long, and how many tries are left', () => {
    expect(pinLockedMessage(PIN_LOCK_MS)).toBe('Too many wrong PINs. Try again in 15 minutes.');
    expect(pinLockedMessage(30_000)).toBe('Too many wrong PINs. Try again in 1 minute.');
    expect(wrongPinMessage(4)).toBe('That PIN is not right. 4 tries left.');
    expect(wrongPinMessage(1)).toBe('That PIN is not right. 1 try left.');
    expect(wrongPinMessage(0)).toBe('That PIN is not right.');
  });
});
