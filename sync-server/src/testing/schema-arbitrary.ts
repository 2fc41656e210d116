import fc from 'fast-check';
import { z } from 'zod';
import { TEST_PASSWORD } from './auth-fixtures.ts';
import { hostileValue, textOf } from './hostile-values.ts';

/** The part of JSON Schema (draft 2020-12) that z.toJSONSchema produces for our schemas. */
type JsonSchema = {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
};

export type ArbitraryOptions = {
  /** Ids that exist in the test's database, so that values reach past "not found". */
  knownIds: readonly string[];
  /** How often (1 in n) a node is replaced by a hostile value; 0 never. */
  hostileOneIn: number;
};

/**
 * Values for a zod schema: mostly valid — so that they reach the handler's service and the
 * database — with hostile values in place of any field now and then, and valid-looking text
 * carrying NUL bytes, lone surrogates and the like.
 */
export function arbitraryOf(schema: z.ZodType, options: ArbitraryOptions): fc.Arbitrary<unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return fromJsonSchema(json, { root: json, options, depth: 0 });
}

/** Where the walk is: the whole schema ($refs), how deep, and the name of the field. */
type Walk = { root: JsonSchema; options: ArbitraryOptions; depth: number; key?: string };

function fromJsonSchema(schema: JsonSchema, walk: Walk): fc.Arbitrary<unknown> {
  const valid = validOf(schema, walk);
  if (!walk.options.hostileOneIn) return valid;
  return fc.oneof(
    { weight: walk.options.hostileOneIn - 1, arbitrary: valid },
    { weight: 1, arbitrary: hostileValue },
  );
}

function validOf(schema: JsonSchema, walk: Walk): fc.Arbitrary<unknown> {
  const { root, options, depth, key } = walk;
  const inner = (s: JsonSchema, innerKey?: string) =>
    fromJsonSchema(s, { root, options, depth: depth + 1, ...(innerKey ? { key: innerKey } : {}) });
  if (depth > 8) return fc.constant(null);
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.$ref) {
    const name = schema.$ref.replace(/^#\/\$defs\//, '');
    const target = root.$defs?.[name];
    return target ? inner(target, key) : fc.jsonValue({ maxDepth: 2 });
  }
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices?.length) return fc.oneof(...choices.map((choice) => inner(choice, key)));
  if (schema.allOf?.[0]) return inner(schema.allOf[0], key);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1) return fc.oneof(...types.map((type) => validOf({ ...schema, type }, walk)));
  switch (types[0]) {
    case 'string':
      return stringOf(schema, options, key);
    case 'integer':
    case 'number':
      return numberOf(schema, types[0] === 'integer');
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      if (schema.prefixItems) return fc.tuple(...schema.prefixItems.map((item) => inner(item)));
      const items = schema.items ? inner(schema.items) : fc.jsonValue({ maxDepth: 2 });
      const minLength = schema.minItems ?? 0;
      return fc.array(items, {
        minLength,
        maxLength: Math.max(minLength, Math.min(schema.maxItems ?? 5, 5)),
      });
    }
    case 'object':
      return objectOf(schema, inner);
    default:
      return fc.jsonValue({ maxDepth: 3 });
  }
}

function objectOf(
  schema: JsonSchema,
  inner: (s: JsonSchema, key?: string) => fc.Arbitrary<unknown>,
) {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const known = fc.record(
    Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, inner(value, key)])),
    { requiredKeys: Object.keys(properties).filter((key) => required.has(key)) },
  );
  const extra =
    schema.additionalProperties && typeof schema.additionalProperties === 'object'
      ? fc.dictionary(textOf({ maxLength: 12 }), inner(schema.additionalProperties), { maxKeys: 3 })
      : fc.constant({});
  return fc.tuple(known, extra).map(([k, e]) => ({ ...e, ...k }));
}

const DAY_MS = 86_400_000;
const isoDate = fc
  .integer({ min: Date.parse('1900-01-01'), max: Date.parse('2100-01-01') })
  .map((ms) => new Date(ms).toISOString());

/**
 * Text a field's name asks for, where the schema cannot say (a refinement or a pipe hides it):
 * without these nearly every request would stop at validation.
 */
const hints: Array<[RegExp, fc.Arbitrary<string>]> = [
  [
    /email|identifier/i,
    fc.stringMatching(/^[a-z0-9]{1,12}$/).map((name) => `${name}@example.test`),
  ],
  [
    /time ?zone/i,
    fc.constantFrom('UTC', 'Europe/Paris', 'America/New_York', 'Pacific/Chatham', 'Mars/Olympus'),
  ],
  // Days close together: ranges (from … to) are refused past a few weeks.
  [
    /^(from|to|day|date)$|On$/,
    fc
      .integer({ min: 0, max: 40 })
      .map((n) => new Date(Date.UTC(2026, 0, 1 + n)).toISOString().slice(0, 10)),
  ],
  [/password/i, fc.constantFrom(TEST_PASSWORD, `${TEST_PASSWORD}!`)],
  [/^pin$/i, fc.stringMatching(/^\d{4,6}$/)],
];

function stringOf(schema: JsonSchema, options: ArbitraryOptions, key = ''): fc.Arbitrary<string> {
  const hint = hints.find(([pattern]) => pattern.test(key))?.[1];
  if (hint && !schema.format)
    return fc.oneof(
      { weight: 3, arbitrary: hint },
      { weight: 1, arbitrary: stringOf(schema, options) },
    );
  switch (schema.format) {
    case 'uuid':
      return fc.oneof(fc.constantFrom(...options.knownIds), fc.uuid({ version: 4 }));
    case 'email':
      return fc.emailAddress();
    case 'date-time':
      return isoDate;
    case 'date':
      return isoDate.map((iso) => iso.slice(0, 10));
    case 'time':
      return fc
        .integer({ min: 0, max: DAY_MS - 1 })
        .map((ms) => new Date(ms).toISOString().slice(11, 19));
  }
  if (schema.pattern) {
    try {
      return fc.stringMatching(new RegExp(schema.pattern));
    } catch {
      // a pattern the generator cannot walk: text of the right length instead
    }
  }
  const minLength = schema.minLength ?? 0;
  return fc.oneof(
    textOf({ minLength, maxLength: Math.max(minLength, Math.min(schema.maxLength ?? 40, 80)) }),
    // Lengths at the edge and one past it.
    fc
      .constantFrom(minLength, schema.maxLength ?? 200, (schema.maxLength ?? 200) + 1)
      .map((n) => 'a'.repeat(n)),
  );
}

function numberOf(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? schema.exclusiveMinimum ?? -1e6;
  const max = schema.maximum ?? schema.exclusiveMaximum ?? 1e6;
  const edges = fc.constantFrom(min, max, min - 1, max + 1, 0);
  const inRange = integer
    ? fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  return fc.oneof(inRange, edges);
}
