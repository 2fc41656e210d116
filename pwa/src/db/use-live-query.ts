import { useEffect, useState } from 'react';
import type { MangoQuery } from 'rxdb/plugins/core';
import type { CollectionName } from '@platform/schema/sync/collections';
import type { AccountDatabase, Doc } from './database.ts';

export type LiveQuery = { status: 'loading' | 'ready'; documents: Doc[] };

/** The documents a query matches, kept current as local writes and replication change them. */
export function useLiveQuery(
  db: AccountDatabase | null,
  collection: CollectionName,
  query: MangoQuery<Doc> = {},
): LiveQuery {
  const [state, setState] = useState<LiveQuery>({ status: 'loading', documents: [] });
  const key = JSON.stringify(query);
  useEffect(() => {
    if (!db) return;
    const subscription = db
      .collectionOf(collection)
      .find(JSON.parse(key) as MangoQuery<Doc>)
      .$.subscribe((documents) =>
        setState({ status: 'ready', documents: documents.map((d) => d.toJSON() as Doc) }),
      );
    return () => subscription.unsubscribe();
  }, [db, collection, key]);
  return state;
}
