import { z } from 'zod';
import type { RxCollection, RxJsonSchema } from 'rxdb/plugins/core';
import {
  replicatedCollections,
  type CollectionName,
  type DocOf,
} from '@platform/schema/sync/collections';
import { localNameOf, rxSchemaOf } from './rx-schema.ts';

/**
 * One collection of the account's database: its name in RxDB (and so in IndexedDB), the zod
 * schema its documents are typed by, and its RxDB schema. `D` is the zod schema's output, so a
 * collection created from a definition holds exactly the documents the schema describes.
 */
export type CollectionDefinition<D, L extends string = string> = {
  localName: L;
  schema: z.ZodType<D>;
  rxSchema: RxJsonSchema<D>;
};

export function defineCollection<D extends { id: string }, L extends string>(
  localName: L,
  schema: z.ZodType<D>,
  rxSchema: RxJsonSchema<D>,
): CollectionDefinition<D, L> {
  return { localName, schema, rxSchema };
}

/** Any replicated document (a refused one is kept whatever its collection). */
export type ReplicatedDoc = DocOf<CollectionName>;

/** Pushes the server refused (422), kept on the device so the person sees why. Local only. */
export const rejectionSchema = z.object({
  id: z.string(),
  collectionName: z.string(),
  documentId: z.string(),
  message: z.string(),
  document: z.custom<ReplicatedDoc>((value) => typeof value === 'object' && value !== null),
  rejectedAt: z.string(),
});
export type Rejection = z.infer<typeof rejectionSchema>;

const rejectionsRxSchema: RxJsonSchema<Rejection> = {
  title: 'rejections',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 100 },
    collectionName: { type: 'string' },
    documentId: { type: 'string' },
    message: { type: 'string' },
    document: { type: 'object' },
    rejectedAt: { type: 'string', maxLength: 30 },
  },
  required: ['id', 'collectionName', 'documentId', 'message', 'document', 'rejectedAt'],
  indexes: ['rejectedAt'],
};

/**
 * The replicated collections of an account's database, keyed by their names in schema/ (the
 * names the server and the sync paths use), each with its zod schema from there and the RxDB
 * schema derived from it. The type requires one entry for each, so adding a collection to
 * schema/ fails the type check here until it is defined.
 */
export const replicatedDefinitions: {
  [N in CollectionName]: CollectionDefinition<DocOf<N>>;
} = {
  roster: defineCollection(
    localNameOf('roster'),
    replicatedCollections.roster.schema,
    rxSchemaOf('roster'),
  ),
  'time-entries': defineCollection(
    localNameOf('time-entries'),
    replicatedCollections['time-entries'].schema,
    rxSchemaOf('time-entries'),
  ),
  bookings: defineCollection(
    localNameOf('bookings'),
    replicatedCollections.bookings.schema,
    rxSchemaOf('bookings'),
  ),
  'org-branding': defineCollection(
    localNameOf('org-branding'),
    replicatedCollections['org-branding'].schema,
    rxSchemaOf('org-branding'),
  ),
  'customer-notes': defineCollection(
    localNameOf('customer-notes'),
    replicatedCollections['customer-notes'].schema,
    rxSchemaOf('customer-notes'),
  ),
  products: defineCollection(
    localNameOf('products'),
    replicatedCollections.products.schema,
    rxSchemaOf('products'),
  ),
  purchases: defineCollection(
    localNameOf('purchases'),
    replicatedCollections.purchases.schema,
    rxSchemaOf('purchases'),
  ),
  invoices: defineCollection(
    localNameOf('invoices'),
    replicatedCollections.invoices.schema,
    rxSchemaOf('invoices'),
  ),
  credits: defineCollection(
    localNameOf('credits'),
    replicatedCollections.credits.schema,
    rxSchemaOf('credits'),
  ),
  classes: defineCollection(
    localNameOf('classes'),
    replicatedCollections.classes.schema,
    rxSchemaOf('classes'),
  ),
  occurrences: defineCollection(
    localNameOf('occurrences'),
    replicatedCollections.occurrences.schema,
    rxSchemaOf('occurrences'),
  ),
  'appointment-types': defineCollection(
    localNameOf('appointment-types'),
    replicatedCollections['appointment-types'].schema,
    rxSchemaOf('appointment-types'),
  ),
  availability: defineCollection(
    localNameOf('availability'),
    replicatedCollections.availability.schema,
    rxSchemaOf('availability'),
  ),
  'booking-payments': defineCollection(
    localNameOf('booking-payments'),
    replicatedCollections['booking-payments'].schema,
    rxSchemaOf('booking-payments'),
  ),
};

export const rejectionsDefinition = defineCollection(
  'rejections',
  rejectionSchema,
  rejectionsRxSchema,
);

/** The replicated collections, each typed by its zod schema: `collections['time-entries'].find()`. */
export type ReplicatedCollections = { [N in CollectionName]: RxCollection<DocOf<N>> };
