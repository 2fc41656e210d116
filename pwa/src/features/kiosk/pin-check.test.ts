import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  kioskMessages,
  pinLockedMessage,
  wrongPinMessage,
} from '@platform/schema/kiosk/kiosk.messages';
import {
  MAX_PIN_FAILURES,
  newPinVerifier,
  PIN_LOCK_MS,
} from '@platform/schema/kiosk/kiosk-pin.rules';
import type { Kiosk, KioskStaffMember } from '@platform/schema/kiosk/kiosk.zod';
import { checkPin } from './pin-check.ts';

/** localStorage as the browser has it (Node has none). */
class MemoryStorage {
  private readonly items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, value);
  removeItem = (key: string) => void this.items.delete(key);
}

const orgId = '7d3f2a4e-2222-4c1a-9a55-0c1f0d6d1a01';
const now = new Date('2026-11-23T08:00:00.000Z');

describe('checking a PIN at a kiosk with no network', () => {
  let kiosk: Kiosk;
  let sam: KioskStaffMember;

  beforeEach(async () => {
    vi.stubGlobal('localStorage', new MemoryStorage());
    // The network is down: every request fails before reaching the server.
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    sam = {
      userId: '7d3f2a4e-3333-4c1a-9a55-0c1f0d6d1a01',
      name: 'Sam Staff',
      pin: await newPinVerifier('4821'),
      lockedUntil: null,
    };
    kiosk = {
      id: '7d3f2a4e-1111-4c1a-9a55-0c1f0d6d1a01',
      org: { id: orgId, label: 'Zipper Fitness', timezone: null },
      startedBy: { id: '7d3f2a4e-4444-4c1a-9a55-0c1f0d6d1a01', name: 'Olivia Owner' },
      staff: [sam],
    };
  });
  afterEach(() => vi.unstubAllGlobals());

  it('accepts the right PIN with the verifier the kiosk was given', async () => {
    expect(await checkPin(kiosk, sam, '4821', now)).toEqual({ ok: true });
  });

  it('counts wrong PINs on the device and locks the person out on the fifth', async () => {
    for (let i = 1; i < MAX_PIN_FAILURES; i++) {
      expect(await checkPin(kiosk, sam, '0000', now)).toEqual({
        ok: false,
        message: wrongPinMessage(MAX_PIN_FAILURES - i),
      });
    }
    const locked = { ok: false, message: pinLockedMessage(PIN_LOCK_MS) };
    expect(await checkPin(kiosk, sam, '0000', now)).toEqual(locked);
    expect(await checkPin(kiosk, sam, '4821', now)).toEqual(locked);
    const later = new Date(now.getTime() + PIN_LOCK_MS);
    expect(await checkPin(kiosk, sam, '4821', later)).toEqual({ ok: true });
  });

  it('keeps a lock the server set while it was online', async () => {
    const lockedUntil = new Date(now.getTime() + 10 * 60_000).toISOString();
    expect(await checkPin(kiosk, { ...sam, lockedUntil }, '4821', now)).toEqual({
      ok: false,
      message: pinLockedMessage(10 * 60_000),
    });
  });

  it('says so when the person has no PIN yet', async () => {
    expect(await checkPin(kiosk, { ...sam, pin: null }, '4821', now)).toEqual({
      ok: false,
      message: kioskMessages.noPin,
    });
  });
});
