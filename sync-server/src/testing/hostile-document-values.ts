import fc from 'fast-check';
import { TIME_RANGE } from '@platform/schema/sync/iso-time';

/**
 * fast-check arbitraries for what a broken or hostile device may send in a document: times at
 * the edges of every range (ours, PostgreSQL's, JavaScript's, the years Node misreads), text
 * with lone surrogates, NUL, quotes and backslashes, text at and past each length limit, and
 * nesting deeper than any recursive walk survives.
 */

const FROM_MS = Date.parse(TIME_RANGE.from);
const UNTIL_MS = Date.parse(TIME_RANGE.until);
const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** Instants inside the accepted range, often on its first or last milliseconds. */
export const acceptedInstant = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(FROM_MS, FROM_MS + 1, UNTIL_MS - 2 * DAY_MS, 0) },
  { weight: 4, arbitrary: fc.integer({ min: FROM_MS, max: UNTIL_MS - 2 * DAY_MS }) },
);

/** A time field's value: mostly accepted, otherwise anything a device could get wrong. */
export const hostileTime = fc.oneof(
  { weight: 4, arbitrary: acceptedInstant.map(iso) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '0000-01-01T00:00:00.000Z',
      '0001-01-01T00:00:00.000Z',
      '0012-12-31T00:00:00.000Z',
      '0025-11-20T09:00:00.000Z',
      '0099-12-31T23:59:59.999Z',
      '1850-01-01T09:00:00.000Z',
      '1883-11-18T16:59:59.999Z',
      iso(FROM_MS - 1),
      iso(UNTIL_MS - 1),
      TIME_RANGE.until,
      '9999-12-31T23:59:59.999Z',
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({
        min: Date.parse('0000-01-01T00:00:00.000Z'),
        max: Date.parse('9999-12-31T23:59:59.999Z'),
      })
      .map(iso),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '+010000-01-01T00:00:00.000Z',
      '-000001-01-01T00:00:00.000Z',
      '2023-02-29T00:00:00.000Z',
      '2026-11-20T24:00:00.000Z',
      '2026-11-20T09:00:00Z',
      '2026-11-20T09:00:00.000+01:00',
      '2026-11-20 09:00:00.000Z',
      'infinity',
      '',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 0, -1e300, true, [], {}) },
);

/** Text of up to `max` UTF-16 units that PostgreSQL stores, or text around that limit and worse. */
export function hostileText(max: number) {
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength: 1, maxLength: Math.min(max, 40) }) },
    {
      weight: 2,
      arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: Math.min(max, 40) }),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '\ud800',
        'a\udfffb',
        'nul\u0000byte',
        'NULL',
        '"quoted"',
        'back\\slash\\',
        '{brace,comma}',
        '  padded  ',
        '\u2028\ufeff',
        '😀'.repeat(Math.max(1, Math.floor(max / 2))),
        '😀'.repeat(Math.floor(max / 2) + 1),
        'x'.repeat(max),
        'x'.repeat(max + 1),
      ),
    },
  );
}

/** An array nested `depth` deep — as JSON text, since building the value itself recurses. */
export const deepNesting = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** A marker a document carries in place of a deep array, swapped in once it is JSON. */
export const DEEP_MARKER = '__deep_nesting__';

/** Something extra beside a document's fields: nothing, junk, or nesting 100,000 deep. */
export const strayField = fc.option(
  fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constant(DEEP_MARKER)),
  { nil: undefined },
);

/** The rows of a push as JSON text, with any marker replaced by a 100,000-deep array. */
export function pushBody(rows: unknown[]): string {
  return JSON.stringify(rows).replaceAll(`"${DEEP_MARKER}"`, deepNesting(100_000));
}
