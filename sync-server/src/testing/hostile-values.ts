import fc from 'fast-check';

/**
 * Values a client may send that no form would: for the route fuzzer (app.fuzz.test.ts). Each
 * one has broken a server somewhere — NUL bytes PostgreSQL refuses, lone surrogates it stores
 * as U+FFFD, prototype keys, nesting that overflows a recursive walk, numbers past what a
 * column or a double holds, and plain wrong types.
 */
export const hostileCharacter = fc.constantFrom(
  '\u0000',
  '\uD800',
  '\uDBFF',
  '\uDC00',
  '\uDFFF',
  '\u202E',
  '\uFEFF',
  '\uFFFF',
  '\\',
  "'",
  '"',
  '%',
  '_',
  '\n',
);

/** Mostly ordinary text, with hostile characters mixed in. */
export function textOf(constraints: { minLength?: number; maxLength?: number } = {}) {
  return fc.string({
    unit: fc.oneof(
      { weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
      { weight: 1, arbitrary: hostileCharacter },
    ),
    minLength: constraints.minLength ?? 0,
    maxLength: constraints.maxLength ?? 40,
  });
}

export const hostileString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\uD800',
    'x\uDFFFy',
    '\uDC00\uD800',
    '__proto__',
    'constructor',
    'toString',
    '../../../etc/passwd',
    "'; drop table users; --",
    '%00',
    '%ED%A0%80',
    'NaN',
    '-0',
    '1e309',
    '9999-12-31T23:59:59.999Z',
    '0000-00-00',
    '00000000-0000-0000-0000-000000000000',
  ),
  textOf({ maxLength: 200 }),
  // Past every column's limit but within the body limit; and past the body limit (413).
  fc.constantFrom(65_536, 1_048_577).map((length) => 'x'.repeat(length)),
);

export const hostileNumber = fc.constantFrom(
  -1,
  0,
  1.5,
  -2_147_483_649,
  2_147_483_648,
  2 ** 53 + 2,
  -(2 ** 53),
  1e308,
  -1e308,
  5e-324,
);

/** Objects with a prototype key as an own property (JSON.parse makes them so). */
const prototypeKeyed = fc
  .constantFrom(
    '{"__proto__":{"isAdmin":true}}',
    '{"constructor":{"prototype":{"isAdmin":true}}}',
    '{"toString":"x","valueOf":1,"hasOwnProperty":null}',
  )
  .map((text) => JSON.parse(text) as unknown);

/** A value nested `depth` levels deep, built without recursion. */
export function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [null], { a: 1 }) },
  { weight: 1, arbitrary: prototypeKeyed },
  { weight: 1, arbitrary: fc.constantFrom(10, 63, 65, 500).map(nested) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/**
 * Whole bodies no serializer makes: broken JSON, absurd nesting as text (JSON.stringify would
 * overflow making it), invalid UTF-8, numbers JSON.parse turns into Infinity.
 */
export const hostileRawBody: fc.Arbitrary<string | Buffer> = fc.oneof(
  fc.constantFrom(
    '',
    '{',
    'null',
    '"text"',
    '1e400',
    '[1e400]',
    '{"a":1,"a":2}',
    `${'['.repeat(5000)}${']'.repeat(5000)}`,
    `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`,
    '{"__proto__":{"x":1}}',
  ),
  fc.constantFrom(
    Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22]),
  ),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
);

/**
 * A query-string or path component for any string, lone surrogates included: those go out as
 * the bytes WTF-8 would give them (what a careless client sends), which encodeURIComponent
 * refuses to make.
 */
export function percentEncode(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0xd800 && code <= 0xdfff)
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    else out += encodeURIComponent(char);
  }
  return out;
}

/** A query string from generated values: arrays repeat the key, objects go as JSON text. */
export function queryStringOf(query: unknown): string {
  if (!query || typeof query !== 'object' || Array.isArray(query))
    return `q=${percentEncode(JSON.stringify(query) ?? '')}`;
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      const text = typeof item === 'string' ? item : (JSON.stringify(item) ?? '');
      parts.push(`${percentEncode(key)}=${percentEncode(text)}`);
    }
  }
  return parts.join('&');
}
