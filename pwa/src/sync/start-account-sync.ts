import { fromEvent, map, merge, startWith } from 'rxjs';
import { collectionsFor, type Viewer } from '@platform/schema/sync/access.rules';
import {
  openAccountDatabase,
  removeAccountDatabase,
  type AccountDatabase,
} from '../db/database.ts';
import { startSync, type SyncEngine } from './replication.ts';

export type AccountSync = { db: AccountDatabase; engine: SyncEngine; stop: () => Promise<void> };

/**
 * Opens the account's local database and replicates what the account may see. Loaded on
 * demand (RxDB is not part of the first paint); one account's database is open at a time.
 */
export async function startAccountSync(accountId: string, viewer: Viewer): Promise<AccountSync> {
  const db = await openAccountDatabase(accountId);
  const online$ = merge(fromEvent(window, 'online'), fromEvent(window, 'offline')).pipe(
    map(() => navigator.onLine),
    startWith(navigator.onLine),
  );
  const engine = startSync(db, { collections: collectionsFor(viewer), online$ });
  const reconnect = () => engine.reconnect();
  window.addEventListener('online', reconnect);
  return {
    db,
    engine,
    stop: async () => {
      window.removeEventListener('online', reconnect);
      await engine.stop();
      await db.close();
    },
  };
}

/** Signing out: the account's local data leaves the device (its database must be closed). */
export async function forgetAccountData(accountId: string): Promise<void> {
  await removeAccountDatabase(accountId);
}
