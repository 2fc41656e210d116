import type {
  DexieStorageInternals,
  PreparedQuery,
  RxDocumentData,
  RxStorage,
  RxStorageInstance,
  RxStorageInstanceCreationParams,
  RxStorageQueryResult,
} from 'rxdb/plugins/core';
import { getQueryMatcher, getSortComparator } from 'rxdb/plugins/core';
import {
  DEXIE_DOCS_TABLE_NAME,
  dexieReplaceIfStartsWithPipe,
  fromDexieToStorage,
  getKeyRangeByQueryPlan,
} from 'rxdb/plugins/storage-dexie';

/**
 * RxDB's Dexie storage answers a query by walking an IndexedDB cursor over the query plan's
 * index range: one request, one answer and one task on the main thread per document. A screen
 * reading a month of the timetable (~1,200 class times, issue 16) waits for 1,200 of them, each
 * behind whatever else the main thread is drawing. This wraps the storage so that a query
 * whose whole range is read anyway is read with one `getAll` on the same index and key range —
 * one request — and then filtered, sorted, skipped and limited exactly as RxDB's own
 * `dexieQuery` does (rxdb/src/plugins/storage-dexie/dexie-query.ts, v17). Left to the cursor:
 * a limit the index cannot apply by itself; a range holding more than `maxDocuments` documents
 * (counted first, which reads no document), so that a read of a whole large collection stays
 * many short tasks rather than one long one; and a closed instance (the storage's own error).
 * `index-reads.test.ts` compares both answers over random documents and queries.
 *
 * A wrapper rather than a fork: everything but `query` is the storage's own.
 */
export function withIndexReads<Internals, Options>(
  storage: RxStorage<Internals, Options>,
  { maxDocuments = 2_500 }: { maxDocuments?: number } = {},
): RxStorage<Internals, Options> {
  // Only Dexie's internals are read below.
  if (storage.name !== 'dexie') return storage;
  return {
    ...storage,
    async createStorageInstance<RxDocType>(
      params: RxStorageInstanceCreationParams<RxDocType, Options>,
    ): Promise<RxStorageInstance<RxDocType, Internals, Options>> {
      const instance = await storage.createStorageInstance(params);
      const cursorQuery = instance.query.bind(instance);
      instance.query = async (prepared) => {
        if (!readsWholeRange(prepared) || (instance as { closed?: unknown }).closed)
          return cursorQuery(prepared);
        return (await getAllQuery(instance, prepared, maxDocuments)) ?? cursorQuery(prepared);
      };
      return instance;
    },
  };
}

/**
 * True when every document in the plan's range is read either way: no limit, or a limit the
 * index applies by itself (it decides both which documents match and their order, so the read
 * stops at skip + limit). Otherwise the cursor stops as soon as it has enough matches.
 */
function readsWholeRange<RxDocType>(prepared: PreparedQuery<RxDocType>): boolean {
  const { query, queryPlan } = prepared;
  if (typeof query.limit !== 'number') return true;
  return queryPlan.selectorSatisfiedByIndex && queryPlan.sortSatisfiedByIndex;
}

/** The most records one `getAll` may be asked for (IndexedDB's count is an unsigned long). */
const MAX_COUNT = 2 ** 32 - 1;

/** The query's answer from one `getAll` — or null when its range holds too many documents. */
async function getAllQuery<RxDocType>(
  instance: RxStorageInstance<RxDocType, unknown, unknown>,
  prepared: PreparedQuery<RxDocType>,
  maxDocuments: number,
): Promise<RxStorageQueryResult<RxDocType> | null> {
  const state = await (instance.internals as unknown as DexieStorageInternals);
  const { query, queryPlan } = prepared;
  const skip = query.skip ?? 0;
  const limit = typeof query.limit === 'number' ? query.limit : Infinity;
  const matcher = queryPlan.selectorSatisfiedByIndex
    ? null
    : getQueryMatcher(instance.schema, query);
  let keyRange: IDBKeyRange;
  try {
    keyRange = getKeyRangeByQueryPlan(
      state.booleanIndexes,
      queryPlan,
      state.dexieDb._options.IDBKeyRange,
    ) as IDBKeyRange;
  } catch (error) {
    // As dexieQuery: a range IndexedDB cannot express matches nothing.
    if (error instanceof Error && error.name === 'DataError') return { documents: [] };
    throw error;
  }
  const indexName = `[${queryPlan.index.map((field) => dexieReplaceIfStartsWithPipe(field)).join('+')}]`;
  // The index can stop at skip + limit by itself only when it decides matching and order, and
  // IndexedDB takes a count from 1 to 2³²−1 (0 means all; anything else throws): otherwise all.
  const stopAt = !matcher && queryPlan.sortSatisfiedByIndex ? skip + Math.max(limit, 0) : Infinity;
  const count = Number.isInteger(stopAt) && stopAt > 0 && stopAt <= MAX_COUNT ? stopAt : undefined;
  const values = await state.dexieDb.transaction(
    'r',
    state.dexieTable,
    async (dexieTx: { idbtrans: IDBTransaction }) => {
      const index = dexieTx.idbtrans.objectStore(DEXIE_DOCS_TABLE_NAME).index(indexName);
      const ask = <T>(request: IDBRequest<T>) =>
        new Promise<T>((resolve, reject) => {
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
        });
      // A read the index stops within the cap needs no count (IndexedDB counts by walking).
      if (count === undefined || count > maxDocuments) {
        const inRange = await ask(index.count(keyRange));
        if (Math.min(inRange, count ?? inRange) > maxDocuments) return null;
      }
      return ask(index.getAll(keyRange, count));
    },
  );
  if (!values) return null;
  let rows: Array<RxDocumentData<RxDocType>> = [];
  for (const value of values) {
    const document = fromDexieToStorage(state.booleanIndexes, value) as RxDocumentData<RxDocType>;
    if (!matcher || matcher(document)) rows.push(document);
  }
  if (!queryPlan.sortSatisfiedByIndex) rows = rows.sort(getSortComparator(instance.schema, query));
  return { documents: rows.slice(skip, skip + limit) };
}
