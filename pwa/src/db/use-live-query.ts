import { useEffect, useState } from 'react';
import { combineLatest } from 'rxjs';
import type { MangoQuery } from 'rxdb/plugins/core';
import type { CollectionName } from '@platform/schema/sync/collections';
import { firstPullsOf } from '../sync/first-pull.ts';
import type { AccountDatabase, Doc } from './database.ts';

export type LiveQuery = { status: 'loading' | 'ready'; documents: Doc[] };

/**
 * The documents a query matches, kept current as local writes and replication change them —
 * the one way a screen reads replicated data (DESIGN.md How data flows 6). 'loading' until the
 * collection has reached this device once: an empty replica that was never pulled means "not
 * here yet", not "nothing".
 */
export function useLiveQuery(
  db: AccountDatabase | null,
  collection: CollectionName,
  query: MangoQuery<Doc> = {},
): LiveQuery {
  const [state, setState] = useState<LiveQuery>({ status: 'loading', documents: [] });
  const key = JSON.stringify(query);
  useEffect(() => {
    if (!db) return;
    const subscription = combineLatest([
      db.collectionOf(collection).find(JSON.parse(key) as MangoQuery<Doc>).$,
      firstPullsOf(db.name).done$,
    ]).subscribe(([documents, pulled]) =>
      setState({
        status: pulled.has(collection) ? 'ready' : 'loading',
        documents: documents.map((d) => d.toJSON() as Doc),
      }),
    );
    return () => subscription.unsubscribe();
  }, [db, collection, key]);
  return state;
}
