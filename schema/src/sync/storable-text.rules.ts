/** What a replicated document's text must not hold, and why (PostgreSQL stores UTF-8 text). */
export const storableTextMessages = {
  nul: 'Text must not contain NUL characters.',
  loneSurrogate: 'Text must be valid Unicode: it holds half of a character pair.',
} as const;

// In a `u` pattern a surrogate pair is one code point: only a half without its partner matches.
const loneSurrogate = /\p{Surrogate}/u;

/**
 * The first reason PostgreSQL could not store every string of `value` exactly — in any field,
 * at any depth, keys included — or null. PostgreSQL text cannot hold NUL (the write would fail
 * with a 500 a device retries for ever), and half of a surrogate pair has no UTF-8 form (the
 * driver writes U+FFFD instead, so the document would come back changed). Walks with its own
 * stack: a document nested 100,000 deep must be refused, not overflow the call stack.
 */
export function unstorableTextIn(value: unknown): string | null {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (next.includes('\u0000')) return storableTextMessages.nul;
      if (loneSurrogate.test(next)) return storableTextMessages.loneSurrogate;
    } else if (Array.isArray(next)) {
      // One by one: spreading an array of half a million items overflows the stack too.
      for (const item of next) pending.push(item);
    } else if (next !== null && typeof next === 'object')
      for (const [key, field] of Object.entries(next)) pending.push(key, field);
  }
  return null;
}
