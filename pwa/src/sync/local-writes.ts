import { replicatedCollections, type CollectionName } from '@platform/schema/sync/collections';
import type { AccountDatabase, Doc } from '../db/database.ts';
import { pendingWritesOf } from './pending-writes.ts';

/**
 * The one way the app changes a replicated document on the device: validated by the same zod
 * schema the server uses, stamped with the time it happened, and counted as not yet sent.
 */
export async function saveDocument(
  db: AccountDatabase,
  name: CollectionName,
  doc: Doc,
  now = new Date(),
): Promise<Doc> {
  const parsed = replicatedCollections[name].schema.parse({
    ...doc,
    updatedAt: now.toISOString(),
  }) as Doc;
  await db.collectionOf(name).upsert(parsed);
  pendingWritesOf(db.name).add(name, parsed.id);
  return parsed;
}

export async function deleteDocument(
  db: AccountDatabase,
  name: CollectionName,
  id: string,
  now = new Date(),
): Promise<void> {
  const document = await db.collectionOf(name).findOne(id).exec();
  if (!document) return;
  await document.incrementalPatch({ updatedAt: now.toISOString() });
  await document.remove();
  pendingWritesOf(db.name).add(name, id);
}
