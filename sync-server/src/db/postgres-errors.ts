/** An error and its causes, outermost first (a loop in the chain ends it). */
function chainOf(error: unknown): object[] {
  const chain: object[] = [];
  for (
    let current: unknown = error;
    current && typeof current === 'object' && !chain.includes(current);
    current = (current as { cause?: unknown }).cause
  )
    chain.push(current);
  return chain;
}

/**
 * The codes an error carries along its `cause` chain: drizzle wraps the driver's error (which
 * holds PostgreSQL's SQLSTATE or the socket's code) in a DrizzleQueryError of its own.
 */
export function errorCodesOf(error: unknown): string[] {
  return chainOf(error).flatMap((link) => {
    const code = (link as { code?: unknown }).code;
    return typeof code === 'string' ? [code] : [];
  });
}

/** A unique constraint refused the write (23505), whether the driver wraps the error or not. */
export function isUniqueViolation(error: unknown): boolean {
  return errorCodesOf(error).includes('23505');
}

/**
 * PostgreSQL's answers to text it cannot store (NUL bytes, invalid encodings): the request
 * was bad, not the server — wherever such text slipped past the schemas.
 */
const badTextCodes = new Set(['22021', '22P05']);

export function isUnstorableText(error: unknown): boolean {
  return errorCodesOf(error).some((code) => badTextCodes.has(code));
}

/**
 * The database cannot be reached now — down, restarting, out of connections, or closed under
 * us — so the same request may well succeed in a moment (503 + Retry-After, not 500).
 */
const unavailableCodes = new Set([
  // Node's sockets, as postgres.js passes them on.
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  // postgres.js's own.
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  // PostgreSQL: admin or crash shutdown, starting up, too many connections.
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
/** PGlite says so in words only. */
const PGLITE_CLOSED = 'PGlite is closed';

export function isDatabaseUnavailable(error: unknown): boolean {
  for (const code of errorCodesOf(error))
    // Class 08: connection exceptions.
    if (unavailableCodes.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  return messagesOf(error).includes(PGLITE_CLOSED);
}

function messagesOf(error: unknown): string[] {
  return chainOf(error).flatMap((link) => {
    const message = (link as { message?: unknown }).message;
    return typeof message === 'string' ? [message] : [];
  });
}
