import { addRxPlugin, createRxDatabase, removeRxDatabase, type RxCollection, type RxDatabase } from 'rxdb/plugins/core';
import { RxDBLeaderElectionPlugin } from 'rxdb/plugins/leader-election';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { collectionNames, type CollectionName } from '@platform/schema/sync/collections';
import { conflictHandlerFor } from '../sync/conflict-handlers.ts';
import { localNameOf, rejectionsSchema, rxSchemaOf, type Rejection } from './rx-schema.ts';

addRxPlugin(RxDBLeaderElectionPlugin);
addRxPlugin(RxDBMigrationSchemaPlugin);

export type Doc = Record<string, unknown> & { id: string };
export type AccountDatabase = {
  rx: RxDatabase<Record<string, RxCollection>>;
  name: string;
  close: () => Promise<boolean>;
  collectionOf: (name: CollectionName) => RxCollection<Doc>;
  rejections: RxCollection<Rejection>;
  /** Ids the server refused and whose conflict must resolve to the master (see replication). */
  refusedIds: (name: CollectionName) => Set<string>;
};

/** Where IndexedDB comes from: the browser's, or fake-indexeddb under tests. */
export type StorageOptions = { indexedDB?: IDBFactory; IDBKeyRange?: typeof IDBKeyRange; multiInstance?: boolean };

const databaseName = (accountId: string) => `account_${accountId.replace(/[^a-z0-9]/gi, '').toLowerCase()}`;
const storage = (options: StorageOptions) =>
  getRxStorageDexie(options.indexedDB && options.IDBKeyRange ? { indexedDB: options.indexedDB, IDBKeyRange: options.IDBKeyRange } : {});

/**
 * One local database per signed-in account (a guardian switched into a child gets the child's
 * data). Local schema versions come from schema/; a shape change bumps the version there and
 * adds its migration strategy here.
 */
export async function openAccountDatabase(accountId: string, options: StorageOptions = {}): Promise<AccountDatabase> {
  const db = await createRxDatabase<Record<string, RxCollection>>({
    name: databaseName(accountId),
    storage: storage(options),
    multiInstance: options.multiInstance ?? true,
    eventReduce: true,
    closeDuplicates: true,
  });
  const refused = new Map(collectionNames.map((name) => [name, new Set<string>()]));
  await db.addCollections({
    ...Object.fromEntries(
      collectionNames.map((name) => [
        localNameOf(name),
        { schema: rxSchemaOf(name), migrationStrategies: {}, conflictHandler: conflictHandlerFor(name, refused.get(name) ?? new Set()) },
      ]),
    ),
    rejections: { schema: rejectionsSchema },
  });
  return {
    rx: db,
    name: db.name,
    close: () => db.close(),
    collectionOf: (name: CollectionName) => db.collections[localNameOf(name)] as unknown as RxCollection<Doc>,
    rejections: db.collections.rejections as unknown as RxCollection<Rejection>,
    refusedIds: (name: CollectionName) => refused.get(name) ?? new Set<string>(),
  };
}

/**
 * Signing out: the account's local data leaves the device. RxDB's removal empties the
 * collections but leaves Dexie's IndexedDB databases (named after the account) in place; on a
 * shared family tablet or front-desk kiosk not even that should remain, so they are deleted too.
 */
export async function removeAccountDatabase(accountId: string, options: StorageOptions = {}): Promise<void> {
  const name = databaseName(accountId);
  await removeRxDatabase(name, storage(options));
  const factory = options.indexedDB ?? globalThis.indexedDB;
  const leftovers = (await factory.databases()).map((d) => d.name ?? '').filter((n) => n.includes(name));
  await Promise.all(
    leftovers.map(
      (leftover) =>
        new Promise<void>((resolve, reject) => {
          const request = factory.deleteDatabase(leftover);
          request.onsuccess = () => resolve();
          request.onerror = () => reject(request.error ?? new Error(`could not delete ${leftover}`));
          // Another tab still has it open: it goes once that tab closes; do not hang sign-out.
          request.onblocked = () => resolve();
        }),
    ),
  );
}
