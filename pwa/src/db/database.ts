import {
  addRxPlugin,
  createRxDatabase,
  type RxCollection,
  type RxDatabase,
} from 'rxdb/plugins/core';
import { RxDBLeaderElectionPlugin } from 'rxdb/plugins/leader-election';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { accessTo, type Viewer } from '@platform/schema/sync/access.rules';
import { collectionNames, type CollectionName } from '@platform/schema/sync/collections';
import { conflictHandlerFor } from '../sync/conflict-handlers.ts';
import { withIndexReads } from './index-reads.ts';
import { migrationStrategies } from './migrations.ts';
import {
  rejectionsDefinition,
  replicatedDefinitions,
  type ReplicatedCollections,
  type Rejection,
} from './collections.ts';

addRxPlugin(RxDBLeaderElectionPlugin);
addRxPlugin(RxDBMigrationSchemaPlugin);

export type AccountDatabase = {
  rx: RxDatabase;
  name: string;
  close: () => Promise<boolean>;
  /** The replicated collections, typed by their zod schemas: `db.collections.roster.find()`. */
  collections: ReplicatedCollections;
  /** Local only: the pushes the server refused, with its reasons. */
  rejections: RxCollection<Rejection>;
  /** Ids the server refused and whose conflict must resolve to the master (see replication). */
  refusedIds: (name: CollectionName) => Set<string>;
};

/** Where IndexedDB comes from: the browser's, or fake-indexeddb under tests. */
export type StorageOptions = {
  indexedDB?: IDBFactory;
  IDBKeyRange?: typeof IDBKeyRange;
  multiInstance?: boolean;
};

export type OpenOptions = StorageOptions & {
  /**
   * The collections this device replicates in this scope (the viewer's, `collectionsFor`); all
   * by default — more than RxDB's open core opens at once in a page (14, MAX_OPEN_COLLECTIONS in
   * access.rules.ts), so the app always names them. Only these are created: a scope never needs
   * the collections its viewer may not replicate.
   */
  collections?: readonly CollectionName[];
};

const compact = (id: string) => id.replace(/[^a-z0-9]/gi, '').toLowerCase();
const userPrefix = (userId: string) => `account_${compact(userId)}`;

/**
 * One local database per account *and scope*: the organisation, the view and how far each
 * collection reaches for this viewer. Checkpoints and documents belong to a scope — reusing
 * them after switching organisation or view would skip rows and keep another tenant's data.
 */
export function scopedDatabaseName(
  userId: string,
  viewer: Viewer,
  /**
   * The children a customer sees (a family scope): when a child is linked or disconnected the
   * scope changes, so the device starts over from a full pull — a disconnected child's data
   * must leave, and a newly linked child's older documents must arrive.
   */
  family: readonly string[] = [],
): string {
  const reach = collectionNames.map((name) => accessTo(name, viewer)?.reach[0] ?? 'x').join('');
  const base = `${userPrefix(userId)}_${viewer.orgId ? compact(viewer.orgId) : 'none'}_${viewer.view[0]}${reach}`;
  return family.length === 0 ? base : `${base}_f${fingerprint([...family].sort().join(','))}`;
}

/** FNV-1a, 32 bits: a short, stable name for a set of ids (not a secret). */
function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}
// Queries that read their whole index range do it in one IndexedDB request (index-reads.ts).
const storage = (options: StorageOptions) =>
  withIndexReads(
    getRxStorageDexie(
      options.indexedDB && options.IDBKeyRange
        ? { indexedDB: options.indexedDB, IDBKeyRange: options.IDBKeyRange }
        : {},
    ),
  );

/**
 * One local database per signed-in account (a guardian switched into a child gets the child's
 * data). Local schema versions come from schema/; a shape change bumps the version there and
 * adds its migration strategy in migrations.ts.
 */
export async function openAccountDatabase(
  name: string,
  options: OpenOptions = {},
): Promise<AccountDatabase> {
  const opened = collectionNames.filter((n) => options.collections?.includes(n) ?? true);
  const db = await createRxDatabase({
    name,
    storage: storage(options),
    multiInstance: options.multiInstance ?? true,
    eventReduce: true,
    closeDuplicates: true,
  });
  const refused = new Map(collectionNames.map((name) => [name, new Set<string>()]));
  const created = await db.addCollections({
    ...Object.fromEntries(
      opened.map((name) => [
        replicatedDefinitions[name].localName,
        {
          schema: replicatedDefinitions[name].rxSchema,
          migrationStrategies: migrationStrategies[name],
          conflictHandler: conflictHandlerFor(name, refused.get(name) ?? new Set()),
        },
      ]),
    ),
    [rejectionsDefinition.localName]: { schema: rejectionsDefinition.rxSchema },
  });
  // RxDB hands created collections back untyped (RxCollection<any>); each one here was created
  // from the definition under the same key, whose zod schema gives its document type. A
  // collection this scope does not replicate is absent (see `hasCollection`).
  const collections = Object.fromEntries(
    opened.map((name) => [name, db.collections[replicatedDefinitions[name].localName]]),
  ) as ReplicatedCollections;
  return {
    rx: db,
    name: db.name,
    close: () => db.close(),
    collections,
    rejections: created[rejectionsDefinition.localName],
    refusedIds: (name: CollectionName) => refused.get(name) ?? new Set<string>(),
  };
}

/**
 * Signing out: every local database of the account (all its scopes) leaves the device, and so
 * do its counts of unsent changes. The databases are deleted at the IndexedDB level — RxDB's
 * own removal empties collections but leaves Dexie's databases, named after the account, in
 * place. Close the open database first; a database still open in another tab goes when that
 * tab closes (deletion never hangs sign-out).
 */
export async function removeAccountDatabases(
  userId: string,
  options: StorageOptions = {},
): Promise<void> {
  await removeDatabasesMatching((name) => name.includes(userPrefix(userId)), options);
}

/** One scope's local database (a family scope left behind), deleted the same way. */
export async function removeScopeDatabase(
  name: string,
  options: StorageOptions = {},
): Promise<void> {
  // Exactly this scope: another scope's name may start with this one's.
  await removeDatabasesMatching(
    (candidate) => candidate.includes(`-${name}--`) || candidate.endsWith(`:${name}`),
    options,
  );
}

async function removeDatabasesMatching(
  matches: (name: string) => boolean,
  options: StorageOptions,
): Promise<void> {
  const factory = options.indexedDB ?? globalThis.indexedDB;
  const names = (await factory.databases()).map((d) => d.name ?? '').filter(matches);
  await Promise.all(
    names.map(
      (name) =>
        new Promise<void>((resolve, reject) => {
          const request = factory.deleteDatabase(name);
          request.onsuccess = () => resolve();
          request.onerror = () => reject(request.error ?? new Error(`could not delete ${name}`));
          request.onblocked = () => resolve();
        }),
    ),
  );
  try {
    for (const key of Object.keys(globalThis.localStorage ?? {}))
      if (matches(key)) globalThis.localStorage.removeItem(key);
  } catch {
    // No localStorage (tests) or it is unavailable: nothing was kept there.
  }
}

/** Whether this scope's database holds the collection (its viewer replicates it). */
export function hasCollection(db: AccountDatabase, name: CollectionName): boolean {
  return name in db.collections;
}
