import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ValidationFailed } from './domain-errors.ts';

/**
 * How deep a JSON body may nest. Our deepest documents are a push row's break intervals (five
 * levels); 64 leaves room for any client and stays far from what overflows a recursive walk
 * (JSON.stringify, deep equality, the drivers) — a 5,000-level push answered 500 before.
 */
export const MAX_JSON_DEPTH = 64;

export const jsonBodyMessages = {
  notUtf8: 'The request body is not valid UTF-8.',
  tooDeep: `The request body nests more than ${MAX_JSON_DEPTH} levels deep.`,
  loneSurrogate:
    'The request body contains a lone UTF-16 surrogate (\\ud800–\\udfff), which is not text and cannot be stored as sent.',
} as const;

// fatal: invalid bytes are refused, not replaced by U+FFFD (which would store other text).
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Whether `text` (JSON) opens more than `max` objects or arrays inside each other. */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

// With the u flag a surrogate pair is one code point, so only an unpaired half matches.
const loneSurrogate = /[\uD800-\uDFFF]/u;

/** Whether any string or key in a parsed JSON value holds an unpaired surrogate. */
export function holdsLoneSurrogate(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const current = stack.pop();
    if (typeof current === 'string') {
      if (loneSurrogate.test(current)) return true;
    } else if (current && typeof current === 'object') {
      for (const [key, inner] of Object.entries(current)) {
        if (loneSurrogate.test(key)) return true;
        stack.push(inner);
      }
    }
  }
  return false;
}

/**
 * The JSON body parser: Fastify's own (which refuses `__proto__` and `constructor.prototype`
 * keys), behind checks that the text is UTF-8, not nested absurdly deep, and free of lone
 * surrogates — PostgreSQL would store U+FFFD for those, or refuse them in jsonb with a 500.
 */
export const jsonBodyPlugin = fp(
  async (app: FastifyInstance) => {
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
      let text: string;
      try {
        text = utf8.decode(body as Buffer);
      } catch {
        return done(new ValidationFailed(jsonBodyMessages.notUtf8), undefined);
      }
      if (nestsDeeperThan(text, MAX_JSON_DEPTH))
        return done(new ValidationFailed(jsonBodyMessages.tooDeep), undefined);
      parseJson(request, text, (error, parsed) => {
        if (error) return done(error, undefined);
        if (holdsLoneSurrogate(parsed))
          return done(new ValidationFailed(jsonBodyMessages.loneSurrogate), undefined);
        done(null, parsed);
      });
    });
  },
  { name: 'json-body' },
);
