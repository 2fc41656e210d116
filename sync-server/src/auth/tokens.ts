import { createHash, randomBytes } from 'node:crypto';

/**
 * Secrets handed out once (refresh tokens, reset links, kiosk credentials): the holder keeps
 * the token, the database only its hash, so a database leak does not hand out working ones.
 */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
