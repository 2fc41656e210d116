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
 * `dexieQuery` does (rxdb/src/plugins/storage-dexie/dexie-query.ts, v17). What is left to the
 * cursor: a limit the index cannot apply by itself (documents must be matched one by one to know
 * when to stop). `index-reads.test.ts` compares both answers over random documents and queries.
 *
 * A wrapper rather than a fork: everything but `query` is the storage's own.
 */
export function withIndexReads<Internals, Options>(
  storage: RxStorage<Internals, Options>,
): RxStorage<Internals, Options> {
  return {
    ...storage,
    async createStorageInstance<RxDocType>(
      params: RxStorageInstanceCreationParams<RxDocType, Options>,
    ): Promise<RxStorageInstance<RxDocType, Internals, Options>> {
      const instance = await storage.createStorageInstance(params);
      const cursorQuery = instance.query.bind(instance);
      instance.query = (prepared) =>
        readsWholeRange(prepared) ? getAllQuery(instance, prepared) : cursorQuery(prepared);
      return instance;
    },
  };
}

/**
 * True when every document in the plan's range is read either way: no limit, or a limit the
 * index applies by itself (the index decides both which documents match and their order).
 */
function readsWholeRange<RxDocType>(prepared: PreparedQuery<RxDocType>): boolean {
  const { query, queryPlan } = prepared;
  if (typeof query.limit !== 'number') return true;
  return queryPlan.selectorSatisfiedByIndex && queryPlan.sortSatisfiedByIndex;
}

async function getAllQuery<RxDocType>(
  instance: RxStorageInstance<RxDocType, unknown, unknown>,
  prepared: PreparedQuery<RxDocType>,
): Promise<RxStorageQueryResult<RxDocType>> {
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
  // The index can stop at skip + limit by itself only when it decides matching and order.
  const count =
    !matcher && queryPlan.sortSatisfiedByIndex && Number.isFinite(skip + limit)
      ? skip + limit
      : undefined;
  const values = await state.dexieDb.transaction(
    'r',
    state.dexieTable,
    (dexieTx: { idbtrans: IDBTransaction }) => {
      const index = dexieTx.idbtrans.objectStore(DEXIE_DOCS_TABLE_NAME).index(indexName);
      return new Promise<unknown[]>((resolve, reject) => {
        const request = index.getAll(keyRange, count);
        request.onsuccess = () => resolve(request.result as unknown[]);
        request.onerror = () => reject(request.error ?? new Error('IndexedDB getAll failed'));
      });
    },
  );
  let rows: Array<RxDocumentData<RxDocType>> = [];
  for (const value of values) {
    const document = fromDexieToStorage(state.booleanIndexes, value) as RxDocumentData<RxDocType>;
    if (!matcher || matcher(document)) rows.push(document);
  }
  if (!queryPlan.sortSatisfiedByIndex) rows = rows.sort(getSortComparator(instance.schema, query));
  return { documents: rows.slice(skip, skip + limit) };
}
