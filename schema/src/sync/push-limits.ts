import { z } from 'zod';
import { ISO_TIME_LENGTH } from './iso-time.ts';
import { replicatedCollections, type CollectionName } from './collections.ts';
import { withDeleted } from './sync.zod.ts';

/** How many rows the device puts in one push (RxDB's push batchSize). */
export const PUSH_BATCH_SIZE = 100;

/**
 * The most the device puts in one push request's body, whatever the count: a batch past it is
 * sent in parts. 1 MiB is also nginx's default `client_max_body_size`, so a proxy in front of
 * the server with its defaults never refuses a push the device makes (decision 0047).
 */
export const PUSH_REQUEST_BYTES = 1_048_576;

/** What a device records for a single row that was still too large for the way (413). */
export const pushTooLargeMessage =
  'This change is too large to send to the server; it was kept on this device only.';

// JSON.stringify writes a control character as `\u001f`: six bytes for one UTF-16 code unit.
// Every other code unit costs at most three (a BMP character), a pair four for two.
const MOST_BYTES_PER_CODE_UNIT = 6;
// Strings whose form fixes their length (ASCII): `"` + text + `"`.
const FIXED_LENGTH: Record<string, number> = { uuid: 36, 'date-time': ISO_TIME_LENGTH, date: 10 };

// The longest a JSON number is written: '-1.7976931348623157e+308', '-2.2250738585072014e-308'.
const MOST_NUMBER_CHARS = 24;

type JsonSchemaNode = {
  type?: string;
  minimum?: number;
  maximum?: number;
  format?: string;
  maxLength?: number;
  maxItems?: number;
  enum?: unknown[];
  anyOf?: JsonSchemaNode[];
  items?: JsonSchemaNode;
  properties?: Record<string, JsonSchemaNode>;
};

const utf8Length = (text: string) => new TextEncoder().encode(text).length;

/**
 * The largest a value of this JSON schema can be as JSON text (JSON.stringify, no spaces), in
 * bytes of UTF-8. A string or array without a maximum has no bound: that is a mistake in the
 * schema, and is thrown with its path rather than answered with a limit nobody can trust.
 */
function mostJsonBytes(node: JsonSchemaNode, path: string): number {
  if (node.anyOf) return Math.max(...node.anyOf.map((option) => mostJsonBytes(option, path)));
  if (node.enum) return Math.max(...node.enum.map((value) => utf8Length(JSON.stringify(value))));
  switch (node.type) {
    case 'null':
      return 4;
    case 'boolean':
      return 5;
    case 'integer':
      // A bounded integer is as long as the longer of its bounds.
      if (node.minimum !== undefined && node.maximum !== undefined)
        return Math.max(String(node.minimum).length, String(node.maximum).length);
      return MOST_NUMBER_CHARS;
    case 'number':
      return MOST_NUMBER_CHARS;
    case 'string': {
      const fixed = node.format ? FIXED_LENGTH[node.format] : undefined;
      if (fixed !== undefined) return 2 + fixed;
      if (node.maxLength === undefined) break;
      return 2 + node.maxLength * MOST_BYTES_PER_CODE_UNIT;
    }
    case 'array': {
      if (node.maxItems === undefined || !node.items) break;
      const item = mostJsonBytes(node.items, `${path}[]`);
      return 2 + node.maxItems * item + Math.max(0, node.maxItems - 1);
    }
    case 'object': {
      const fields = Object.entries(node.properties ?? {});
      const inner = fields.reduce(
        (sum, [key, value]) =>
          sum + utf8Length(JSON.stringify(key)) + 1 + mostJsonBytes(value, `${path}.${key}`),
        0,
      );
      return 2 + inner + Math.max(0, fields.length - 1);
    }
  }
  throw new Error(`${path || 'document'}: no largest size (${JSON.stringify(node)})`);
}

/** The largest document of a collection on the wire (with its `_deleted` flag), in bytes. */
export function mostDocumentBytes(name: CollectionName): number {
  const wire = withDeleted(replicatedCollections[name].schema);
  const json = z.toJSONSchema(wire, { target: 'draft-7', io: 'output' }) as JsonSchemaNode;
  return mostJsonBytes(json, '');
}

/**
 * The largest push body a device can make for a collection: PUSH_BATCH_SIZE rows, each with
 * the largest document twice (the state it assumed and the new one). The server's body limit
 * for the push route — a batch the app makes must never be refused for its size for ever.
 */
export function mostPushBodyBytes(name: CollectionName): number {
  const doc = mostDocumentBytes(name);
  const row = '{"assumedMasterState":,"newDocumentState":}'.length + 2 * doc;
  return 2 + PUSH_BATCH_SIZE * row + (PUSH_BATCH_SIZE - 1);
}
