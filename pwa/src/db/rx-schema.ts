import { z } from 'zod';
import type { RxJsonSchema } from 'rxdb/plugins/core';
import {
  replicatedCollections,
  type CollectionName,
  type DocOf,
} from '@platform/schema/sync/collections';

/** RxDB collection names allow only [a-z0-9]: `time-entries` is `timeentries` on the device. */
export const localNameOf = (name: CollectionName) => name.replace(/[^a-z0-9]/g, '');

type JsonSchema = { [key: string]: unknown };

/** zod's format/pattern checks stay with zod (every local write is parsed by it); RxDB gets types. */
function stripValidationOnly(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripValidationOnly);
  if (!node || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'format' || key === 'pattern' || key === '$schema') continue;
    out[key] = stripValidationOnly(value);
  }
  return out;
}

/**
 * The RxDB schema of a replicated collection, derived from its zod schema in schema/ — one
 * source, not two hand-kept copies. Dexie wants a maxLength on the primary key and on every
 * indexed string (DXE1); ids are UUIDs and times ISO strings, so both are bounded.
 */
export function rxSchemaOf<N extends CollectionName>(name: N): RxJsonSchema<DocOf<N>> {
  const definition = replicatedCollections[name];
  const json = stripValidationOnly(
    z.toJSONSchema(definition.schema, { target: 'draft-7', io: 'output' }),
  ) as JsonSchema & {
    properties: Record<string, JsonSchema>;
    required: string[];
  };
  const properties = { ...json.properties };
  for (const field of ['id', ...definition.indexes]) {
    const property = properties[field];
    if (property?.type === 'string') properties[field] = { ...property, maxLength: 40 };
  }
  return {
    title: name,
    version: definition.version,
    primaryKey: 'id',
    type: 'object',
    properties,
    required: json.required,
    indexes: [...definition.indexes],
    // Built at run time from the zod schema whose output DocOf<N> is: TypeScript cannot follow
    // z.toJSONSchema, so this is the one place the RxDB schema is asserted to match that type.
  } as unknown as RxJsonSchema<DocOf<N>>;
}
