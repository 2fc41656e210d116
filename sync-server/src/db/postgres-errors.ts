/**
 * The codes an error carries along its `cause` chain: drizzle wraps the driver's error (which
 * holds PostgreSQL's SQLSTATE or the socket's code) in a DrizzleQueryError of its own.
 */
export function errorCodesOf(error: unknown): string[] {
  const codes: string[] = [];
  const seen = new Set<unknown>();
  for (
    let current: unknown = error;
    current && typeof current === 'object' && !seen.has(current);
    current = (current as { cause?: unknown }).cause
  ) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
  }
  return codes;
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
