import type { CollectionName, DocOf } from '@platform/schema/sync/collections';
import { replicatedDefinitions } from '../db/collections.ts';
import { hasCollection, type AccountDatabase } from '../db/database.ts';
import type { ReplicaDocument } from '../db/use-live-query.ts';
import { pendingWritesOf } from './pending-writes.ts';

/**
 * The one way the app changes a replicated document on the device: validated by the same zod
 * schema the server uses, stamped with the time it happened, and counted as not yet sent.
 */
export async function saveDocument<N extends CollectionName>(
  db: AccountDatabase,
  name: N,
  /** The next state (a replica document read-only as screens hold it is fine: it is copied). */
  doc: ReplicaDocument<DocOf<N>>,
  now = new Date(),
): Promise<DocOf<N>> {
  const parsed = replicatedDefinitions[name].schema.parse({
    ...doc,
    updatedAt: now.toISOString(),
  });
  if (!hasCollection(db, name)) {
    throw new Error(`${name} is not replicated in this scope: nothing to save it to`);
  }
  await db.collections[name].upsert(parsed);
  pendingWritesOf(db.name).add(name, parsed.id);
  return parsed;
}

export async function deleteDocument(
  db: AccountDatabase,
  name: CollectionName,
  id: string,
  now = new Date(),
): Promise<void> {
  if (!hasCollection(db, name)) return;
  const document = await db.collections[name].findOne(id).exec();
  if (!document) return;
  await document.incrementalPatch({ updatedAt: now.toISOString() });
  await document.remove();
  pendingWritesOf(db.name).add(name, id);
}
