import { fromEvent, map, merge, startWith } from 'rxjs';
import { collectionsFor, type Viewer } from '@platform/schema/sync/access.rules';
import {
  openAccountDatabase,
  removeAccountDatabases,
  scopedDatabaseName,
  type AccountDatabase,
} from '../db/database.ts';
import { startSync, type SyncEngine } from './replication.ts';

export type AccountSync = { db: AccountDatabase; engine: SyncEngine; stop: () => Promise<void> };

/**
 * Opens the local database of the account's current scope and replicates what it may see.
 * Loaded on demand (RxDB is not part of the first paint); one database is open at a time.
 */
export async function startAccountSync(userId: string, viewer: Viewer): Promise<AccountSync> {
  const db = await openAccountDatabase(scopedDatabaseName(userId, viewer));
  const online$ = merge(fromEvent(window, 'online'), fromEvent(window, 'offline')).pipe(
    map(() => navigator.onLine),
    startWith(navigator.onLine),
  );
  const engine = startSync(db, { collections: collectionsFor(viewer), online$ });
  const reconnect = () => engine.reconnect();
  window.addEventListener('online', reconnect);
  let stopped: Promise<void> | null = null;
  return {
    db,
    engine,
    stop: () =>
      (stopped ??= (async () => {
        window.removeEventListener('online', reconnect);
        await engine.stop();
        await db.close();
      })()),
  };
}

/** Signing out: the account's local data leaves the device (close its database first). */
export async function forgetAccountData(userId: string): Promise<void> {
  await removeAccountDatabases(userId);
}
