import { collectionsFor, type Viewer } from '@platform/schema/sync/access.rules';
import {
  removeAccountDatabases,
  removeScopeDatabase,
  scopedDatabaseName,
} from '../db/database.ts';
import { pendingWritesOf } from './pending-writes.ts';
import { startDeviceSync, type DeviceSync } from './start-device-sync.ts';

export type AccountSync = DeviceSync;

/**
 * Opens the local database of the account's current scope and replicates what it may see.
 * Loaded on demand (RxDB is not part of the first paint); one database is open at a time.
 */
export async function startAccountSync(
  userId: string,
  viewer: Viewer,
  family: readonly string[] = [],
): Promise<AccountSync> {
  const sync = await startDeviceSync(
    scopedDatabaseName(userId, viewer, family),
    collectionsFor(viewer),
  );
  // Earlier family scopes of this account and scope (a child linked or disconnected since, on
  // this device or another, with the app open or not) leave the device: a disconnected child's
  // documents must not stay. One with changes still waiting to be sent is kept.
  void removeStaleFamilyScopes(scopedDatabaseName(userId, viewer), sync.db.name).catch(
    (error: unknown) => console.warn('old family data could not be removed', error),
  );
  return sync;
}

export async function removeStaleFamilyScopes(base: string, current: string): Promise<void> {
  const pattern = new RegExp(`^rxdb-dexie-(${base}(?:_f[a-z0-9]+)?)--`);
  const scopes = new Set(
    (await indexedDB.databases()).flatMap((d) => pattern.exec(d.name ?? '')?.[1] ?? []),
  );
  for (const name of scopes) {
    if (name !== current && pendingWritesOf(name).count$.value === 0)
      await removeScopeDatabase(name);
  }
}

/** Signing out: the account's local data leaves the device (close its database first). */
export async function forgetAccountData(userId: string): Promise<void> {
  await removeAccountDatabases(userId);
}
