import { hash, verify } from '@node-rs/argon2';

// @node-rs/argon2's defaults are argon2id, m=19 MiB, t=2 (OWASP's recommended floor).
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies a password. Without a stored hash (unknown user, child or Google-only account) it
 * still runs one verification against a throw-away hash, so the answer takes as long either
 * way and timing does not reveal which accounts exist.
 */
export async function verifyPassword(
  storedHash: string | null | undefined,
  password: string,
): Promise<boolean> {
  if (!storedHash) {
    dummyHash ??= hash('not-a-real-password-only-for-timing');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}
