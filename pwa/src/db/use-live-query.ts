import { startTransition, useEffect, useState } from 'react';
import { combineLatest } from 'rxjs';
import type { MangoQuery } from 'rxdb/plugins/core';
import type { CollectionName, DocOf } from '@platform/schema/sync/collections';
import { firstPullsOf } from '../sync/first-pull.ts';
import { hasCollection, type AccountDatabase } from './database.ts';
import { noteRevision } from './revision-height.ts';

/**
 * A replica document as screens get it: one object shared by every read of its revision
 * (plainDocument), so read-only all the way down — a screen that needs it changed makes a copy.
 */
export type ReplicaDocument<D> =
  D extends ReadonlyArray<infer E>
    ? ReadonlyArray<ReplicaDocument<E>>
    : D extends object
      ? { readonly [K in keyof D]: ReplicaDocument<D[K]> }
      : D;

export type LiveQuery<D> = {
  status: 'loading' | 'ready';
  documents: ReadonlyArray<ReplicaDocument<D>>;
  /** The query these documents answer, serialised (a screen whose query moved can tell). */
  answers?: string;
};

// One value, so a screen's memos over `documents` do not rerun on every render.
const nothingHere: LiveQuery<never> = { status: 'ready', documents: [] };

/**
 * The documents a query matches, kept current as local writes and replication change them —
 * the one way a screen reads replicated data (DESIGN.md How data flows 6). 'loading' until the
 * collection has reached this device once: an empty replica that was never pulled means "not
 * here yet", not "nothing".
 */
export function useLiveQuery<N extends CollectionName>(
  db: AccountDatabase | null,
  collection: N,
  query: MangoQuery<DocOf<N>> = {},
  /** The name its answer time is measured under (User Timing); the collection's by default. */
  measureAs: string = collection,
  /**
   * `background`: a read nobody is looking at yet (a calendar's read-ahead) — its answers are
   * applied as a transition, a render React interrupts for a click or a keystroke and finishes
   * after it, instead of one the click waits behind.
   */
  priority: 'shown' | 'background' = 'shown',
): LiveQuery<DocOf<N>> {
  const [state, setState] = useState<LiveQuery<DocOf<N>>>({ status: 'loading', documents: [] });
  const key = JSON.stringify(query);
  useEffect(() => {
    if (!db || !hasCollection(db, collection)) return;
    // The query is compared by value (callers pass a new literal each render): `key` is it,
    // serialised, and parsing it back gives the same query, which JSON.parse cannot know.
    const asked = performance.now();
    let answered = false;
    const subscription = combineLatest([
      db.collections[collection].find(JSON.parse(key) as MangoQuery<DocOf<N>>).$,
      firstPullsOf(db.name).done$,
    ]).subscribe(([documents, pulled]) => {
      const read = documents.map(plainDocument);
      if (!answered) {
        answered = true;
        measureFirstAnswer(measureAs, asked, read.length);
      }
      const next: LiveQuery<DocOf<N>> = {
        status: pulled.has(collection) ? 'ready' : 'loading',
        documents: read,
        answers: key,
      };
      if (priority === 'background') startTransition(() => setState(next));
      else setState(next);
    });
    return () => subscription.unsubscribe();
  }, [db, collection, key, measureAs, priority]);
  // Not replicated in this scope (its viewer may not see it): nothing, and nothing to wait for.
  if (db && !hasCollection(db, collection)) return nothingHere as LiveQuery<DocOf<N>>;
  return state;
}

// Each revision's plain document, made once: RxDB keeps one RxDocument per revision of a
// document (its document cache), so a revision read again — the next answer of the same query,
// or another query over the same range — hands back the same object, and what a screen derives
// from it (a parse, parsedDocuments) can be kept by identity. Screens treat documents as
// read-only: one object may be held by several reads.
const plainDocuments = new WeakMap<object, unknown>();

/** The plain JSON of a document's revision, the same object each time it is read. */
export function plainDocument<D>(document: {
  toMutableJSON(): D;
  revision?: string;
}): ReplicaDocument<D> {
  let plain = plainDocuments.get(document);
  if (plain === undefined) {
    plain = document.toMutableJSON();
    plainDocuments.set(document, plain);
    noteRevision(plain as object, document.revision);
  }
  // The one place a document becomes read-only: the type only takes away the writes.
  return plain as ReplicaDocument<D>;
}

/**
 * How long the replica took to answer a screen's new query (IndexedDB read, documents built),
 * as a User Timing measure — `replica query: {name}` (the collection's, unless the screen
 * names it), the count in its detail — that DevTools' performance panel shows and the schedule
 * benchmark reads. Only the latest measure of each name is kept, so a long session does not
 * pile them up.
 */
function measureFirstAnswer(measureAs: string, asked: number, documents: number) {
  const name = `replica query: ${measureAs}`;
  try {
    performance.clearMeasures(name);
    performance.measure(name, { start: asked, end: performance.now(), detail: { documents } });
  } catch {
    // A browser without User Timing level 3: nothing to record.
  }
}
