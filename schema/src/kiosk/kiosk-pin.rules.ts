import { z } from 'zod';
import { kioskMessages } from './kiosk.messages.ts';

/** A personal kiosk PIN: 4 to 8 digits, set in one's own settings. */
export const pinSchema = z.string().regex(/^\d{4,8}$/, kioskMessages.pinFormat);

/** Wrong PINs in a row before a person is locked out (on the server, and on each kiosk offline). */
export const MAX_PIN_FAILURES = 5;
export const PIN_LOCK_MS = 15 * 60_000;

/**
 * What a kiosk keeps to check a PIN with no network (decision 0011): PBKDF2-HMAC-SHA-256 of
 * the PIN with a per-person random salt. The iterations travel with the verifier so they can
 * be raised later without breaking the verifiers kiosks already hold.
 */
export const PIN_VERIFIER_ITERATIONS = 100_000;
const VERIFIER_BITS = 256;
const SALT_BYTES = 16;

export type PinVerifier = { salt: string; iterations: number; verifier: string };

/** One derivation for both sides: WebCrypto is in every browser and in Node 20. */
export async function derivePinVerifier(
  pin: string,
  salt: string,
  iterations: number,
): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(pin), 'PBKDF2', false, [
    'deriveBits',
  ]);
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt: fromBase64(salt), iterations },
    key,
    VERIFIER_BITS,
  );
  return toBase64(new Uint8Array(bits));
}

export async function newPinVerifier(pin: string): Promise<PinVerifier> {
  const salt = toBase64(crypto.getRandomValues(new Uint8Array(SALT_BYTES)));
  const iterations = PIN_VERIFIER_ITERATIONS;
  return { salt, iterations, verifier: await derivePinVerifier(pin, salt, iterations) };
}

export async function pinMatches(pin: string, stored: PinVerifier): Promise<boolean> {
  if (!pinSchema.safeParse(pin).success) return false;
  const derived = await derivePinVerifier(pin, stored.salt, stored.iterations);
  // Constant-time by habit; timing is not what protects a kiosk's verifiers.
  let difference = derived.length ^ stored.verifier.length;
  for (let i = 0; i < Math.min(derived.length, stored.verifier.length); i++) {
    difference |= derived.charCodeAt(i) ^ stored.verifier.charCodeAt(i);
  }
  return difference === 0;
}

/** A person's run of wrong PINs on one side (the server's row, or a kiosk's own count offline). */
export type PinFailures = { failures: number; lockedUntil: string | null };
export const noPinFailures: PinFailures = { failures: 0, lockedUntil: null };

/** How long a person stays locked out (0: not locked), whichever lock is later. */
export function pinLockRemainingMs(now: Date, ...locks: Array<string | null | undefined>): number {
  const until = Math.max(0, ...locks.map((lock) => (lock ? Date.parse(lock) : 0)));
  return Math.max(0, until - now.getTime());
}

/** One more wrong PIN: the fifth in a row locks the person out for PIN_LOCK_MS and starts the count again. */
export function afterWrongPin(state: PinFailures, now: Date): PinFailures {
  const failures = state.failures + 1;
  if (failures < MAX_PIN_FAILURES) return { failures, lockedUntil: state.lockedUntil };
  return { failures: 0, lockedUntil: new Date(now.getTime() + PIN_LOCK_MS).toISOString() };
}

function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
