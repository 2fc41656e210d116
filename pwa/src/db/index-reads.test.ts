// First, as in every test of the device's database: Dexie takes the global IndexedDB when it is
// first loaded, and test files share loaded modules (isolate: false).
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { IDBIndex, indexedDB, IDBKeyRange } from 'fake-indexeddb';
import {
  fillWithDefaultSettings,
  normalizeMangoQuery,
  prepareQuery,
  type MangoQuery,
  type RxDocumentData,
  type RxJsonSchema,
  type RxStorage,
} from 'rxdb/plugins/core';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { withIndexReads } from './index-reads.ts';

type Doc = { id: string; startsAt: string; n: number; open: boolean; title: string };

const schema = fillWithDefaultSettings<Doc>({
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 40 },
    startsAt: { type: 'string', maxLength: 30 },
    n: { type: 'number', minimum: 0, maximum: 9, multipleOf: 1 },
    open: { type: 'boolean' },
    title: { type: 'string' },
  },
  required: ['id', 'startsAt', 'n', 'open', 'title'],
  indexes: ['startsAt', ['n', 'startsAt'], 'open'],
} as RxJsonSchema<Doc>);

const dexie = () => getRxStorageDexie({ indexedDB, IDBKeyRange });
let databases = 0;

async function instanceOf(storage: RxStorage<unknown, unknown>, docs: Doc[]) {
  const instance = await storage.createStorageInstance<Doc>({
    databaseInstanceToken: 'index-reads-test',
    databaseName: `index-reads-${++databases}`,
    collectionName: 'docs',
    schema,
    options: {},
    multiInstance: false,
    devMode: false,
  });
  if (docs.length)
    await instance.bulkWrite(
      docs.map((doc, i) => ({
        document: {
          ...doc,
          // Every fourth one a tombstone: queries must never return it.
          _deleted: i % 4 === 3,
          _attachments: {},
          _rev: '1-a',
          _meta: { lwt: 1_000 + i },
        } as RxDocumentData<Doc>,
      })),
      'index-reads-test',
    );
  return instance;
}

const times = ['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04', '2026-01-05'].flatMap(
  (day) => ['08:00', '12:30', '18:00'].map((time) => `${day}T${time}:00.000Z`),
);
const docArbitrary = fc.uniqueArray(
  fc.record({
    id: fc.uuid(),
    startsAt: fc.constantFrom(...times),
    n: fc.integer({ min: 0, max: 9 }),
    open: fc.boolean(),
    title: fc.constantFrom('Yoga', 'Spin', 'Box', ''),
  }),
  { minLength: 3, maxLength: 60, selector: (doc) => doc.id },
);
const time = fc.constantFrom(...times, '2025-12-31T00:00:00.000Z', '2026-02-01T00:00:00.000Z');
const selectorArbitrary = fc.record(
  {
    startsAt: fc.oneof(
      fc.record({ $gte: time, $lt: time }),
      fc.record({ $gt: time }),
      fc.record({ $lte: time }),
      fc.record({ $eq: time }),
    ),
    n: fc.oneof(fc.integer({ min: 0, max: 9 }), fc.record({ $gt: fc.integer({ min: 0, max: 9 }) })),
    open: fc.boolean(),
    title: fc.constantFrom('Yoga', ''),
    id: fc.record({ $in: fc.array(fc.uuid(), { maxLength: 3 }) }),
  },
  { requiredKeys: [] },
);
const queryArbitrary = fc.record(
  {
    // Mostly wide selectors, so that many queries answer several documents whose order counts.
    selector: fc.oneof(
      { weight: 2, arbitrary: fc.constant({}) },
      { weight: 2, arbitrary: fc.record({ startsAt: fc.record({ $gte: time, $lt: time }) }) },
      { weight: 1, arbitrary: fc.record({ open: fc.boolean() }) },
      { weight: 3, arbitrary: selectorArbitrary },
      {
        weight: 1,
        arbitrary: fc.record({
          $or: fc.tuple(
            fc.record({ n: fc.integer({ min: 0, max: 9 }) }),
            fc.record({ open: fc.boolean() }),
          ),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          n: fc.record({ $in: fc.uniqueArray(fc.integer({ min: 0, max: 9 }), { maxLength: 4 }) }),
        }),
      },
    ),
    sort: fc.constantFrom<MangoQuery<Doc>['sort']>(
      [{ startsAt: 'asc' }],
      [{ startsAt: 'desc' }],
      [{ n: 'asc' }, { startsAt: 'asc' }],
      [{ title: 'asc' }],
    ),
    skip: fc.integer({ min: 0, max: 5 }),
    // Ordinary limits, and those IndexedDB's getAll count cannot take as they are.
    limit: fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 1, max: 12 }) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(0, -1, 2 ** 32, 2 ** 32 - 1, Number.MAX_SAFE_INTEGER),
      },
    ),
  },
  { requiredKeys: ['selector'] },
);

/**
 * A query prepared for the storage as RxQuery prepares it (rx-query.ts getPreparedQuery: no
 * tombstones, the index led by `_deleted`) — or, without `live`, as a storage-level read that
 * sees tombstones too (replication's own reads).
 */
function prepared(mango: MangoQuery<Doc>, live: boolean) {
  const normalized = normalizeMangoQuery(schema, mango);
  if (live) {
    (normalized.selector as Record<string, unknown>)._deleted = { $eq: false };
    normalized.index?.unshift('_deleted');
  }
  return prepareQuery(schema, normalized);
}

describe('index reads (one getAll instead of a cursor)', () => {
  it('answers every query as the Dexie storage itself does', async () => {
    await fc.assert(
      fc.asyncProperty(
        docArbitrary,
        fc.array(queryArbitrary, { minLength: 1, maxLength: 8 }),
        async (docs, queries) => {
          // And one whose ranges over five documents go back to the cursor.
          const [plain, wrapped, capped] = await Promise.all([
            instanceOf(dexie(), docs),
            instanceOf(withIndexReads(dexie()), docs),
            instanceOf(withIndexReads(dexie(), { maxDocuments: 5 }), docs),
          ]);
          try {
            for (const [i, mango] of queries.entries()) {
              const live = i % 2 === 0;
              const ask = () => prepared(mango as MangoQuery<Doc>, live);
              // Whole documents, in order (ids alone would not show a field read wrongly).
              const expected = (await plain.query(ask())).documents;
              const answered = (await wrapped.query(ask())).documents;
              expect(answered, JSON.stringify({ mango, live })).toEqual(expected);
              expect((await capped.query(ask())).documents).toEqual(expected);
            }
          } finally {
            await Promise.all([plain.remove(), wrapped.remove(), capped.remove()]);
          }
        },
      ),
      { numRuns: 80 },
    );
  });

  /** `length` documents on the times above (every fourth one written as a tombstone). */
  const manyDocs = (length: number) =>
    Array.from({ length }, (_, i) => ({
      id: `doc-${String(i).padStart(2, '0')}`,
      startsAt: times[i % times.length] ?? '',
      n: i % 10,
      open: true,
      title: 'Yoga',
    }));

  /** A query's answer and the IndexedDB requests it made on the index. */
  async function requestsFor(
    storage: RxStorage<unknown, unknown>,
    docs: Doc[],
    mango: MangoQuery<Doc>,
  ) {
    const instance = await instanceOf(storage, docs);
    const cursors = vi.spyOn(IDBIndex.prototype, 'openCursor');
    const getAlls = vi.spyOn(IDBIndex.prototype, 'getAll');
    const counts = vi.spyOn(IDBIndex.prototype, 'count');
    try {
      const { documents } = await instance.query(prepared(mango, true));
      return {
        documents,
        cursors: cursors.mock.calls.length,
        getAlls: getAlls.mock.calls.length,
        counts: counts.mock.calls.length,
      };
    } finally {
      cursors.mockRestore();
      getAlls.mockRestore();
      counts.mockRestore();
      await instance.remove();
    }
  }

  it('reads a range with one request, not one per document', async () => {
    const docs = manyDocs(40);
    const read = await requestsFor(withIndexReads(dexie()), docs, {
      selector: {
        startsAt: { $gte: '2026-01-02T00:00:00.000Z', $lt: '2026-01-04T00:00:00.000Z' },
      },
    });
    expect(read.documents.length).toBe(
      docs.filter((d, i) => i % 4 !== 3 && d.startsAt >= '2026-01-02' && d.startsAt < '2026-01-04')
        .length,
    );
    expect({ cursors: read.cursors, getAlls: read.getAlls }).toEqual({ cursors: 0, getAlls: 1 });
  });

  it('leaves a range of more than maxDocuments documents to the cursor (many short tasks)', async () => {
    const read = await requestsFor(withIndexReads(dexie(), { maxDocuments: 5 }), manyDocs(12), {
      selector: {},
    });
    expect(read.documents).toHaveLength(9);
    expect({ cursors: read.cursors, getAlls: read.getAlls }).toEqual({ cursors: 1, getAlls: 0 });
  });

  it('does not count a range the index stops reading within the cap (a first-ten read)', async () => {
    const read = await requestsFor(withIndexReads(dexie(), { maxDocuments: 20 }), manyDocs(40), {
      selector: { startsAt: { $gte: '2026-01-01T00:00:00.000Z' } },
      sort: [{ startsAt: 'asc' }],
      limit: 10,
    });
    expect(read.documents).toHaveLength(10);
    expect({ getAlls: read.getAlls, counts: read.counts }).toEqual({ getAlls: 1, counts: 0 });
  });

  it('refuses a query on a closed instance as the storage does', async () => {
    const wrapped = await instanceOf(withIndexReads(dexie()), []);
    await wrapped.close();
    await expect(wrapped.query(prepared({ selector: {} }, true))).rejects.toThrow(/closed/);
  });
});
